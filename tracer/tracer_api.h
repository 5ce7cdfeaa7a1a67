// The C interface of libtestmap_tracer.so, called by the pytest plugin
// through ctypes (tracer/python/testmap_trace/cpp_recorder.py).
//
// Loading the library (torch.ops.load_library) registers dispatcher kernels
// on DispatchKey::Fake: a typed one for each ATen operator and a boxed
// fallback for the rest (recorded_call.h). That key sits directly below
// DispatchKey::Python, the key through which a TorchDispatchMode sees
// operators, with no kernels or fallbacks of torch's own in between. Putting
// it in a thread's included-key set therefore shows the recorder exactly
// the calls a TorchDispatchMode would see on that thread: below autograd and
// CompositeImplicitAutograd decomposition, factory ops included, and, as
// the autograd engine copies the caller's dispatch-key TLS into the graph
// task, the backward ops on the engine's threads too. While recording a call
// the key is excluded, like the mode is popped while its handler runs, so
// ops that kernels call internally are not recorded.
//
// No C++ (and no torch type) crosses this interface: the plugin must be
// able to refuse a library built against another torch before calling it.
#pragma once

#include <cstddef>

extern "C" {

// "<torch version>\n<torch git version>\n<testmap version>": what the
// library was built against. The same text is embedded in the file behind
// the marker TESTMAP_TRACER_BUILD= so that a loader can read it *without*
// loading the library (loading a mismatched build may itself crash).
const char* testmap_tracer_build_info();

// Starts (on != 0) or stops recording on the calling thread. Threads that
// the autograd engine starts for this thread's backward passes follow it.
void testmap_tracer_enable(int on);

// Suspends (on != 0) or resumes recording on the calling thread without
// losing what was recorded; nests. The plugin suspends while torch.compile
// traces and compiles, as torch does for a TorchDispatchMode whose
// ignore_compile_internals() is true.
void testmap_tracer_suspend(int on);

// Sets the role of the calls the calling thread makes from now on: an index
// into core::kRoles (0 test, 1 assert, 2 inputs, 3 setup, 4 teardown; the
// plugin's ROLES tuple is the writer's copy). Threads that never set one
// (autograd engine threads) record with the role last set by any thread,
// which is the test's thread waiting in backward(). Returns the role the
// thread had, or -1 (and changes nothing) for an index out of range.
int testmap_tracer_set_role(int role);

// What was recorded since the previous take, on every thread, as a JSON
// array of {"op", "dtypes", "device", "role", "count"} objects sorted by op,
// dtypes, device and role, then clears it. The string is owned by the
// caller: release it with testmap_tracer_free.
char* testmap_tracer_take();
void testmap_tracer_free(char* text);

// From now on, a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT)
// first writes its number to `path` (core::SignalNoteFileName), then goes
// on to the handler it had before, so the process dies of it as before.
// `testmap trace` reads the note to name what killed an xdist worker.
// Returns 0, or -1 when the path is too long or a handler cannot be set.
int testmap_tracer_note_fatal_signals(const char* path);

}  // extern "C"
