/* stub: to be written */ typedef int dqr_stub_dqr_engine;
