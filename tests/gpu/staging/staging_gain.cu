// What shared-memory staging gains on the GPU at hand for the kernels
// shared-staging-candidate flags, against their staged versions: a naive and
// a 16x16-tiled matrix multiply (mn, mt) and a 9-point 1-D stencil read from
// global memory and through a shared tile with halo (sn, ss). Median of 21
// CUDA-event timings after 3 warm-ups; "diff" is the largest relative output
// difference of each pair. Kept compact on purpose: it travels to the lent GPU
// inside one command line (see README.md).
#include <cstdio>
#include <vector>
#include <algorithm>
#define T 16
#define R 4
__global__ void mn(const float*A,const float*B,float*C,int n){int r=blockIdx.y*T+threadIdx.y,c=blockIdx.x*T+threadIdx.x;float a=0;for(int k=0;k<n;++k)a+=A[r*n+k]*B[k*n+c];C[r*n+c]=a;}
__global__ void mt(const float*A,const float*B,float*C,int n){__shared__ float As[T][T],Bs[T][T];int tx=threadIdx.x,ty=threadIdx.y,r=blockIdx.y*T+ty,c=blockIdx.x*T+tx;float a=0;for(int t=0;t<n/T;++t){As[ty][tx]=A[r*n+t*T+tx];Bs[ty][tx]=B[(t*T+ty)*n+c];__syncthreads();for(int k=0;k<T;++k)a+=As[ty][k]*Bs[k][tx];__syncthreads();}C[r*n+c]=a;}
__global__ void sn(const float*in,float*o){int i=blockIdx.x*256+threadIdx.x;float s=0;for(int j=0;j<=2*R;++j)s+=in[i+j]*(j+1);o[i]=s;}
__global__ void ss(const float*in,float*o){__shared__ float t[256+2*R];int i=blockIdx.x*256+threadIdx.x;t[threadIdx.x]=in[i];if(threadIdx.x<2*R)t[256+threadIdx.x]=in[i+256];__syncthreads();float s=0;for(int j=0;j<=2*R;++j)s+=t[threadIdx.x+j]*(j+1);o[i]=s;}
template<class L>float med(L l){for(int i=0;i<3;++i)l();cudaDeviceSynchronize();cudaEvent_t a,b;cudaEventCreate(&a);cudaEventCreate(&b);std::vector<float>m(21);for(auto&x:m){cudaEventRecord(a);l();cudaEventRecord(b);cudaEventSynchronize(b);cudaEventElapsedTime(&x,a,b);}std::sort(m.begin(),m.end());return m[10];}
float md(std::vector<float>&a,std::vector<float>&b){float d=0;for(size_t i=0;i<a.size();++i)d=std::max(d,std::abs(a[i]-b[i])/std::max(1.f,std::abs(a[i])));return d;}
int main(){for(int n:{1024,2048,4096}){size_t N=size_t(n)*n;std::vector<float>h(N),c1(N),c2(N);for(size_t i=0;i<N;++i)h[i]=float((i*2654435761u)%1000)/1000;float*A,*B,*C;cudaMalloc(&A,N*4);cudaMalloc(&B,N*4);cudaMalloc(&C,N*4);cudaMemcpy(A,h.data(),N*4,cudaMemcpyHostToDevice);cudaMemcpy(B,h.data(),N*4,cudaMemcpyHostToDevice);dim3 bl(T,T),g(n/T,n/T);float x=med([&]{mn<<<g,bl>>>(A,B,C,n);});cudaMemcpy(c1.data(),C,N*4,cudaMemcpyDeviceToHost);float y=med([&]{mt<<<g,bl>>>(A,B,C,n);});cudaMemcpy(c2.data(),C,N*4,cudaMemcpyDeviceToHost);printf("matmul n=%d naive %.4f tiled %.4f ms speedup %.3f diff %.2g\n",n,x,y,x/y,md(c1,c2));cudaFree(A);cudaFree(B);cudaFree(C);}
int n=1<<26;std::vector<float>h(n+256),o1(n),o2(n);for(int i=0;i<n+256;++i)h[i]=float((i*2654435761u)%1000)/1000;float*in,*o;cudaMalloc(&in,(n+256)*4);cudaMalloc(&o,n*4);cudaMemcpy(in,h.data(),(n+256)*4,cudaMemcpyHostToDevice);float x=med([&]{sn<<<n/256,256>>>(in,o);});cudaMemcpy(o1.data(),o,n*4,cudaMemcpyDeviceToHost);float y=med([&]{ss<<<n/256,256>>>(in,o);});cudaMemcpy(o2.data(),o,n*4,cudaMemcpyDeviceToHost);printf("stencil9 naive %.4f staged %.4f ms speedup %.3f diff %.2g err %s\n",x,y,x/y,md(o1,o2),cudaGetErrorString(cudaGetLastError()));}
