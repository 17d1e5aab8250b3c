// libFuzzer's entry for programs with their own main (compiler-rt FuzzerInterface.h).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
