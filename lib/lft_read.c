/* stub: to be written */ typedef int dqr_stub_lft_read;
