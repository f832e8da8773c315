#ifndef VERITRAIL_CLINUX_SHIM_H
#define VERITRAIL_CLINUX_SHIM_H
// Linux calls that Glibc's Swift module can not make: `userfaultfd(2)`, which glibc does not wrap (and
// `syscall` is variadic), and its ioctl numbers (function-like macros, which Swift does not import).
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/userfaultfd.h>

// Newer than the kernel headers of some distributions (Debian 12 ships 6.1's): the values of Linux 6.7's.
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif

/// A new userfaultfd, or -1 with `errno` set.
static inline int veritrail_userfaultfd(int flags) { return (int)syscall(SYS_userfaultfd, flags); }

static inline unsigned long veritrail_uffdio_api(void) { return UFFDIO_API; }
static inline unsigned long veritrail_uffdio_register(void) { return UFFDIO_REGISTER; }
static inline unsigned long long veritrail_uffd_api(void) { return UFFD_API; }
static inline unsigned long long veritrail_uffd_feature_wp_async(void) { return UFFD_FEATURE_WP_ASYNC; }
static inline int veritrail_uffd_user_mode_only(void) { return UFFD_USER_MODE_ONLY; }
static inline unsigned long long veritrail_uffdio_register_mode_wp(void) { return UFFDIO_REGISTER_MODE_WP; }

#endif
