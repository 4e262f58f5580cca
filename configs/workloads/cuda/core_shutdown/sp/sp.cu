// SP (LonestarGPU survey propagation) on a random 3-SAT formula: clauses of 3
// literals (edge e = 3 clause + k names its variable and whether it is negated),
// each variable's edges listed in CSR. eta[e] is the survey clause -> variable:
// the probability that the clause warns its variable it must satisfy it.
//   sp_update:   one Jacobi sweep, a thread per clause-literal edge (a clause's
//                three in one block): the products of (1 - eta) over the
//                variable's other edges of the same and of the opposite sign
//                give the chance the variable is forced to violate the clause
//                (shared memory); each new survey is the product of the other
//                two literals' chances. A survey that moved by more than eps
//                sets state[0] unless max_sweeps sweeps are done (while_nonzero:
//                the host loop until convergence or the cap). The last block to
//                finish advances state[1], the sweep count, whose parity says
//                which survey array is read (the host's pointer swap).
//   sp_bias:     a thread per variable: W+ and W- from the last sweep's surveys;
//                a variable with |W+ - W-| >= fix_threshold is fixed to the
//                favoured value (decimation).
//   sp_simplify: a thread per clause: satisfied by a fixed literal (1),
//                violated (every literal fixed false, -1) or open (0).
// Every product that meets an addition is an explicit fmaf (clang would fuse
// it anyway), so the host can repeat each rounding.
constexpr int kLiterals = 3;
constexpr int kClausesPerBlock = 32;  // blocks of 96 threads

static __device__ float forced_against(const int* __restrict__ var_row, const int* __restrict__ var_edges,
                                       const unsigned char* __restrict__ negated, const float* __restrict__ eta,
                                       int edge, int var) {
  float same = 1.0f, opposite = 1.0f;
  for (int k = var_row[var]; k < var_row[var + 1]; ++k) {
    int other = var_edges[k];
    if (other == edge) continue;
    float keep = 1.0f - eta[other];
    if (negated[other] == negated[edge]) same *= keep;
    else opposite *= keep;
  }
  float denominator = fmaf(-same, opposite, same + opposite);
  return denominator > 0.0f ? (1.0f - opposite) * same / denominator : 0.0f;
}

extern "C" __global__ void sp_update(const int* __restrict__ clause_var, const unsigned char* __restrict__ negated,
                                     const int* __restrict__ var_row, const int* __restrict__ var_edges,
                                     float* eta0, float* eta1, unsigned* state, int clauses, float eps,
                                     unsigned max_sweeps) {
  __shared__ float chance[kClausesPerBlock * kLiterals];
  int slot = threadIdx.x, edge = blockIdx.x * blockDim.x + slot;
  int first = slot - slot % kLiterals;  // this clause's first edge in the block
  unsigned sweep = state[1];
  const float* in = (sweep & 1u) ? eta1 : eta0;
  float* out = (sweep & 1u) ? eta0 : eta1;
  bool active = edge < clauses * kLiterals;
  if (active) chance[slot] = forced_against(var_row, var_edges, negated, in, edge, clause_var[edge]);
  __syncthreads();  // also: every thread of the block has read the sweep count
  if (active) {
    float one = chance[first + (slot - first + 1) % kLiterals], other = chance[first + (slot - first + 2) % kLiterals];
    if (fabsf(fmaf(one, other, -in[edge])) > eps && sweep + 1u < max_sweeps) state[0] = 1u;
    out[edge] = one * other;
  }
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(&state[2], 1u) == gridDim.x - 1) {  // the last block advances the sweep
      state[2] = 0u;
      state[1] = sweep + 1u;
    }
  }
}

extern "C" __global__ void sp_bias(const int* __restrict__ var_row, const int* __restrict__ var_edges,
                                   const unsigned char* __restrict__ negated, const float* __restrict__ eta0,
                                   const float* __restrict__ eta1, const unsigned* __restrict__ state,
                                   float* __restrict__ bias, int* __restrict__ assign, int vars, float fix_threshold) {
  int var = blockIdx.x * blockDim.x + threadIdx.x;
  if (var >= vars) return;
  const float* eta = (state[1] & 1u) ? eta1 : eta0;  // the last sweep's output
  float positive = 1.0f, negative = 1.0f;  // products of (1 - eta) over the clauses with x and with !x
  for (int k = var_row[var]; k < var_row[var + 1]; ++k) {
    int edge = var_edges[k];
    float keep = 1.0f - eta[edge];
    if (negated[edge]) negative *= keep;
    else positive *= keep;
  }
  // W+ - W- = (pi+ - pi-) / (pi+ + pi- + pi0), pi+ = (1 - positive) negative,
  // pi- = (1 - negative) positive, pi0 = positive negative.
  float to_false = (1.0f - negative) * positive;
  float total = fmaf(positive, negative, fmaf(1.0f - positive, negative, to_false));
  float b = total > 0.0f ? fmaf(1.0f - positive, negative, -to_false) / total : 0.0f;
  bias[var] = b;
  assign[var] = b >= fix_threshold ? 1 : (b <= -fix_threshold ? -1 : 0);
}

extern "C" __global__ void sp_simplify(const int* __restrict__ clause_var, const unsigned char* __restrict__ negated,
                                       const int* __restrict__ assign, int* __restrict__ clause_state, int clauses) {
  int clause = blockIdx.x * blockDim.x + threadIdx.x;
  if (clause >= clauses) return;
  int satisfied = 0, falsified = 0;
  for (int k = 0; k < kLiterals; ++k) {
    int edge = clause * kLiterals + k, value = assign[clause_var[edge]];
    int wanted = negated[edge] ? -1 : 1;
    satisfied |= value == wanted;
    falsified += value == -wanted;
  }
  clause_state[clause] = satisfied ? 1 : (falsified == kLiterals ? -1 : 0);
}
