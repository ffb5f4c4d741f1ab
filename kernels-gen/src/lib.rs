//! `kernels-gen`: a rare table becomes CUDA C source with the table in constant memory (issue 5).
