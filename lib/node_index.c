/* stub */ typedef int dqr_stub_node_index;
