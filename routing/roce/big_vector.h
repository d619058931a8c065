// BigVector: std::vector for the comparison's arrays of millions of entries (flow paths, their
// transpose, per-flow rates). The flow loops read them at random positions, so each read risks a cache
// miss and, with 4 KiB pages, a TLB miss on top (a 64 MB path array spans 16,384 pages; a core's TLB
// holds about 2,000). On Linux, allocations of kHugePageBytes and more are aligned to 2 MiB and marked
// MADV_HUGEPAGE before they are touched, so the kernel backs them with transparent huge pages when it
// can (system setting "madvise" or "always"). Smaller allocations, and other systems, get
// std::allocator. Only the memory layout changes, never a value. Unlike std::vector, resize(n) does
// not zero new plain-number elements (see HugePageAllocator::construct).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace smd::roce {

/// Huge page size assumed on x86-64 and arm64 Linux; also the threshold above which it is asked for.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) return std::allocator<T>().allocate(n);
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes, rounded);
    if (!p) throw std::bad_alloc();
#ifdef __linux__
    ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint: refused (no THP support) it changes nothing
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePageBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      std::free(p);
    }
  }

  /// Default-initialise: resize(n) of plain numbers leaves them unwritten, because every big array is
  /// filled right after it is sized (assign() and value constructors still write their value).
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace smd::roce
