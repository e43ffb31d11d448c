/* stub: to be written */ typedef int dqr_stub_channel_list;
