// A shared object that loads but registers no policy: `--plugin` must refuse it.
extern "C" int gpupm_test_not_a_policy() { return 42; }
