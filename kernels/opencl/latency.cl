// The kernel of the OpenCL target's launch-latency figure (issue 22): one work-item that does nothing, so the
// time from enqueue to completion is the cost of a launch itself.
__kernel void empty_kernel(__global int* unused) { (void)unused; }
