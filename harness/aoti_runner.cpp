// The AOTInductor runner: loads a package that torch._inductor.aoti_compile_and_package
// wrote and runs it through libtorch's C++ API, as a deployment would. A C interface
// so the worker can reach it with ctypes; the worker builds it against its own
// torch's headers and libraries on first use (harness/worker.py, aoti_runner()).
// Errors come back as text in the caller's buffer, never as exceptions.
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/from_blob.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace {

struct session {
	std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader;
	std::vector<at::Tensor> outputs; // of the last run, on their device
};

void set_error(char *err, size_t n, const char *what)
{
	if (n)
		std::snprintf(err, n, "%s", what);
}

// A crash inside the loader, a package or this file is native code: Python's
// faulthandler shows only the Python frames around it. Print the native
// frames to stderr (the finding's worker.log), then let the handler that was
// there before (faulthandler's, else the default) take the signal.
struct sigaction previous_handler[NSIG];

void print_native_stack(int sig, siginfo_t *, void *)
{
	static const char head[] = "pt2fuzz aoti runner: native stack at the crash:\n";
	void *frames[64];
	int n = backtrace(frames, 64);
	if (write(2, head, sizeof head - 1) > 0)
		backtrace_symbols_fd(frames, n, 2);
	sigaction(sig, &previous_handler[sig], nullptr);
	raise(sig);
}

__attribute__((constructor)) void install_crash_printer()
{
	void *warm[1];
	backtrace(warm, 1); // loads libgcc's unwinder now, not inside the handler
	struct sigaction sa = {};
	sa.sa_sigaction = print_native_stack;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
		sigaction(sig, &sa, &previous_handler[sig]);
}

} // namespace

extern "C" {

// A loaded package, or NULL with the reason in err.
void *pt2fuzz_aoti_load(const char *package_path, char *err, size_t errlen)
{
	try {
		auto s = std::make_unique<session>();
		s->loader = std::make_unique<torch::inductor::AOTIModelPackageLoader>(package_path);
		return s.release();
	} catch (const std::exception &e) {
		set_error(err, errlen, e.what());
		return nullptr;
	}
}

void pt2fuzz_aoti_free(void *handle)
{
	delete static_cast<session *>(handle);
}

// Runs the package on n tensors, each given by its data pointer, c10::ScalarType
// code, rank, sizes and strides, all on `device` ("cpu", "cuda:0"). Returns the
// number of outputs, or -1 with the reason in err.
int pt2fuzz_aoti_run(void *handle, int n, void *const *data, const int *dtype, const int *rank,
		     const int64_t *const *shape, const int64_t *const *stride, const char *device, char *err,
		     size_t errlen)
{
	auto *s = static_cast<session *>(handle);
	try {
		auto options = at::TensorOptions().device(at::Device(device));
		std::vector<at::Tensor> inputs;
		for (int i = 0; i < n; i++) {
			at::IntArrayRef sizes(shape[i], rank[i]), strides(stride[i], rank[i]);
			auto opts = options.dtype(static_cast<at::ScalarType>(dtype[i]));
			// An empty tensor has no data pointer, and from_blob on a device
			// asks the pointer's device (CUDA: "resides on host memory").
			inputs.push_back(data[i] ? at::from_blob(data[i], sizes, strides, opts)
						 : at::empty_strided(sizes, strides, opts));
		}
		s->outputs = s->loader->run(inputs);
		return static_cast<int>(s->outputs.size());
	} catch (const std::exception &e) {
		set_error(err, errlen, e.what());
		return -1;
	}
}

// Output k of the last run: its ScalarType code, rank, sizes and strides (at most
// maxrank each). Returns its rank, or -1 when k or maxrank is out of range.
int pt2fuzz_aoti_output(void *handle, int k, int *dtype, int64_t *shape, int64_t *stride, int maxrank)
{
	auto *s = static_cast<session *>(handle);
	if (k < 0 || static_cast<size_t>(k) >= s->outputs.size() || s->outputs[k].dim() > maxrank)
		return -1;
	const at::Tensor &t = s->outputs[k];
	*dtype = static_cast<int>(t.scalar_type());
	for (int64_t d = 0; d < t.dim(); d++) {
		shape[d] = t.size(d);
		stride[d] = t.stride(d);
	}
	return static_cast<int>(t.dim());
}

// Copies output k into host memory laid out with its own sizes and strides
// (the caller allocated it so, e.g. torch.empty_strided). The storage span the
// output covers is copied as it lies, so an output whose elements share memory
// (an expanded view, stride 0) keeps its layout: copy_ into such a layout is
// refused ("more than one element of the written-to tensor refers to a single
// memory location"). 0, or -1 with err.
int pt2fuzz_aoti_copy_out(void *handle, int k, void *dst, char *err, size_t errlen)
{
	auto *s = static_cast<session *>(handle);
	try {
		const at::Tensor &t = s->outputs.at(static_cast<size_t>(k));
		if (t.numel() == 0)
			return 0;
		int64_t span = 1;
		for (int64_t d = 0; d < t.dim(); d++)
			span += (t.size(d) - 1) * t.stride(d);
		at::Tensor flat = t.as_strided({span}, {1}, t.storage_offset());
		at::from_blob(dst, {span}, t.options().device(at::kCPU)).copy_(flat);
		return 0;
	} catch (const std::exception &e) {
		set_error(err, errlen, e.what());
		return -1;
	}
}

} // extern "C"
