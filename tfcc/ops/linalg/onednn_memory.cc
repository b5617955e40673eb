// oneDNN's large work buffers from tfcc's CPU allocator (2 MiB pages, cached).
//
// oneDNN's sgemm (dnnl_sgemm, tfcc's float32 matmul) packs its operands into work buffers it
// allocates with posix_memalign and frees on every call (a 4096 product: one 6.3 MB buffer and
// about 20 of 0.4-0.6 MB), which glibc hands out in 4 KiB pages. Backing them with 2 MiB pages
// cuts TLB misses (BENCHMARKS.md, "Matmul against the FMA peak"), but oneDNN has no allocator
// hook. So tfcc redirects libdnnl's own imports of posix_memalign and free (its GOT slots; libdnnl
// is linked BIND_NOW, so they hold the final addresses): requests of 256 KiB or more get a block
// of at least 2 MiB from cpu_allocator() (huge pages, reused across calls), everything else goes
// where it went before. Nothing outside libdnnl is affected. TFCC_ONEDNN_HUGE_PAGES=0 turns it
// off.
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "tfcc/core/allocator.h"
#include "tfcc/ops/linalg/onednn.h"

namespace tfcc::onednn {
namespace {

// Requests from this size on are served from 2 MiB-page blocks: dnnl_sgemm's per-block packing
// buffers are 0.2-0.6 MB each (a 4096 product makes about 20 of them, one after another), its
// per-call buffer 1.6-6.3 MB; they reuse a handful of cached blocks.
constexpr size_t kLarge = size_t{256} << 10;
constexpr size_t kHugePage = size_t{2} << 20;

size_t block_bytes(size_t size) { return std::max(size, kHugePage); }

using PosixMemalignFn = int (*)(void**, size_t, size_t);
using FreeFn = void (*)(void*);
PosixMemalignFn g_real_memalign = nullptr;
FreeFn g_real_free = nullptr;

struct Blocks {
  std::mutex mu;
  std::unordered_map<void*, size_t> sizes;
};
Blocks& blocks() {
  static auto* b = new Blocks;  // leaked: oneDNN may free during exit
  return *b;
}

int large_aware_memalign(void** out, size_t alignment, size_t size) {
  if (size >= kLarge && alignment <= 4096) {
    try {
      void* p = cpu_allocator().allocate(block_bytes(size));  // mmap'ed: page aligned
      std::lock_guard lock(blocks().mu);
      blocks().sizes.emplace(p, size);
      *out = p;
      return 0;
    } catch (...) {
      return ENOMEM;
    }
  }
  return g_real_memalign(out, alignment, size);
}

void large_aware_free(void* p) {
  if (p == nullptr) return;
  size_t size = 0;
  {
    std::lock_guard lock(blocks().mu);
    auto it = blocks().sizes.find(p);
    if (it != blocks().sizes.end()) {
      size = it->second;
      blocks().sizes.erase(it);
    }
  }
  if (size > 0) {
    cpu_allocator().deallocate(p, block_bytes(size));
  } else {
    g_real_free(p);
  }
}

// Rewrites one GOT slot, then gives its page back the protection it had: read-only inside the
// RELRO segment [relro_lo, relro_hi), writable outside it.
bool patch_slot(uintptr_t slot, void* value, uintptr_t relro_lo, uintptr_t relro_hi) {
  const uintptr_t page_size = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t page = slot & ~(page_size - 1);
  if (::mprotect(reinterpret_cast<void*>(page), page_size, PROT_READ | PROT_WRITE) != 0) {
    return false;
  }
  std::memcpy(reinterpret_cast<void*>(slot), &value, sizeof value);
  if (slot >= relro_lo && slot < relro_hi) {
    ::mprotect(reinterpret_cast<void*>(page), page_size, PROT_READ);
  }
  return true;
}

// Finds libdnnl's relocations of posix_memalign and free and points them at the functions above.
int patch_object(struct dl_phdr_info* info, size_t, void* done) {
  if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "libdnnl.so") == nullptr) {
    return 0;
  }
  const ElfW(Dyn)* dyn = nullptr;
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_DYNAMIC) {
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + ph.p_vaddr);
    } else if (ph.p_type == PT_GNU_RELRO) {
      relro_lo = info->dlpi_addr + ph.p_vaddr;
      relro_hi = relro_lo + ph.p_memsz;
    }
  }
  if (dyn == nullptr) return 1;
  const ElfW(Sym)* symtab = nullptr;
  const char* strtab = nullptr;
  const ElfW(Rela) * tables[2] = {nullptr, nullptr};
  size_t sizes[2] = {0, 0};
  bool bind_now = false;
  // glibc relocates these addresses in place on x86-64; other loaders may leave them relative.
  auto addr = [&](ElfW(Addr) a) { return a < info->dlpi_addr ? a + info->dlpi_addr : a; };
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB:
        symtab = reinterpret_cast<const ElfW(Sym)*>(addr(d->d_un.d_ptr));
        break;
      case DT_STRTAB:
        strtab = reinterpret_cast<const char*>(addr(d->d_un.d_ptr));
        break;
      case DT_JMPREL:
        tables[0] = reinterpret_cast<const ElfW(Rela)*>(addr(d->d_un.d_ptr));
        break;
      case DT_PLTRELSZ:
        sizes[0] = d->d_un.d_val;
        break;
      case DT_RELA:
        tables[1] = reinterpret_cast<const ElfW(Rela)*>(addr(d->d_un.d_ptr));
        break;
      case DT_RELASZ:
        sizes[1] = d->d_un.d_val;
        break;
      case DT_FLAGS:
        bind_now |= (d->d_un.d_val & DF_BIND_NOW) != 0;
        break;
      case DT_FLAGS_1:
        bind_now |= (d->d_un.d_val & DF_1_NOW) != 0;
        break;
      default:
        break;
    }
  }
  // With lazy binding the first call through a slot would overwrite it: leave such builds alone.
  if (symtab == nullptr || strtab == nullptr || !bind_now) return 1;
  uintptr_t memalign_slots[4], free_slots[4];
  int n_memalign = 0, n_free = 0;
  for (int t = 0; t < 2; ++t) {
    for (size_t k = 0; tables[t] != nullptr && k < sizes[t] / sizeof(ElfW(Rela)); ++k) {
      const ElfW(Rela)& r = tables[t][k];
      const auto type = ELF64_R_TYPE(r.r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      const char* name = strtab + symtab[ELF64_R_SYM(r.r_info)].st_name;
      const uintptr_t slot = info->dlpi_addr + r.r_offset;
      if (std::strcmp(name, "posix_memalign") == 0 && n_memalign < 4) {
        memalign_slots[n_memalign++] = slot;
      } else if (std::strcmp(name, "free") == 0 && n_free < 4) {
        free_slots[n_free++] = slot;
      }
    }
  }
  if (n_memalign == 0 || n_free == 0) return 1;
  // Blocks already handed out were allocated by the real functions, which large_aware_free
  // falls back to for any pointer it did not hand out itself.
  g_real_memalign = *reinterpret_cast<PosixMemalignFn*>(memalign_slots[0]);
  g_real_free = *reinterpret_cast<FreeFn*>(free_slots[0]);
  bool ok = true;
  for (int i = 0; i < n_free; ++i) {
    ok &= patch_slot(free_slots[i], reinterpret_cast<void*>(&large_aware_free), relro_lo, relro_hi);
  }
  for (int i = 0; ok && i < n_memalign; ++i) {
    ok &= patch_slot(memalign_slots[i], reinterpret_cast<void*>(&large_aware_memalign), relro_lo,
                     relro_hi);
  }
  *static_cast<bool*>(done) = ok;
  return 1;
}

}  // namespace

bool use_tfcc_memory_for_large_buffers() {
  static const bool installed = [] {
    const char* v = std::getenv("TFCC_ONEDNN_HUGE_PAGES");
    if (v != nullptr && std::strcmp(v, "0") == 0) return false;
    bool done = false;
    dl_iterate_phdr(patch_object, &done);
    return done;
  }();
  return installed;
}

}  // namespace tfcc::onednn
