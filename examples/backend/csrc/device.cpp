// What makes `toy` a device: an allocator, a device guard and the
// PrivateUse1 hooks. All three look like registrations and register no
// operator; the backend scan reports them as hooks.
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/impl/alloc_cpu.h>

namespace toy {
namespace {

// Host memory handed out as toy device memory.
struct ToyAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t n) override {
    void* p = c10::alloc_cpu(n);
    return {p, p, &c10::free_cpu, c10::Device(c10::DeviceType::PrivateUse1, 0)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &c10::free_cpu; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};

ToyAllocator allocator;

// One device, one stream.
struct ToyGuardImpl final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return c10::DeviceType::PrivateUse1; }
  c10::Device exchangeDevice(c10::Device d) const override { return getDevice(); }
  c10::Device getDevice() const override { return c10::Device(c10::DeviceType::PrivateUse1, 0); }
  void setDevice(c10::Device) const override {}
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device d) const override {
    return c10::Stream(c10::Stream::DEFAULT, d);
  }
  c10::Stream exchangeStream(c10::Stream s) const override { return s; }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
};

struct ToyHooks final : at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return true; }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
};

}  // namespace

// Registered once the library loads, like a real backend's runtime.
static bool hooks_registered [[maybe_unused]] = [] {
  static ToyHooks hooks;
  at::RegisterPrivateUse1HooksInterface(&hooks);
  return true;
}();

}  // namespace toy

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &toy::allocator)
C10_REGISTER_GUARD_IMPL(PrivateUse1, toy::ToyGuardImpl)
