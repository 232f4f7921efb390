// A header that declares a kernel defined in the file that includes it.
#pragma once
__global__ void scaleFromHeader(float *out, float *in, int n);
