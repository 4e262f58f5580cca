// Between these, a switch on an enum that leaves an enumerator out is a compile
// error (-Wswitch, an error here, not a warning): a table or count that an
// enum's last enumerator sizes cannot silently fall short of a new one.
// GCC and clang both honour the pragmas.
#pragma once

#define GPUPM_EXHAUSTIVE_SWITCHES_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic error \"-Wswitch\"")
#define GPUPM_EXHAUSTIVE_SWITCHES_END _Pragma("GCC diagnostic pop")
