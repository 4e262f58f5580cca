// The smallest program kernel the program tests build on, as PTX text.
#pragma once

namespace gpupm::test {

// A module's header lines, for kernels given without one.
inline constexpr const char* kPtxHeader = ".version 6.4\n.target sm_70\n.address_size 64\n";

// bump(a, p1): a[tid] += p1 (no module header).
inline constexpr const char* kBumpPtx = R"(.visible .entry bump(.param .u64 p0, .param .u32 p1)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [p0];
ld.param.u32 %r3, [p1];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r2, [%rd3];
add.s32 %r2, %r2, %r3;
st.global.u32 [%rd3], %r2;
ret;
}
)";

}  // namespace gpupm::test
