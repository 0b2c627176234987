#ifndef FUZZER_DRIVER_H
#define FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, linked in by -sanitize=fuzzer. SwiftPM gives every executable its own
// entry point, so each fuzzer's main.swift calls the driver instead of relying on
// libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
