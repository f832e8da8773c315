internal import CLinux
internal import Glibc

/// The kernel's fault-around for a shared map of a file: when a read touches a page that is not mapped yet,
/// Linux maps it and the cached pages around it (64 KiB), so that reading on from there takes no more faults.
///
/// Why turn it off: a query at ten million events touches ~4,000 pages scattered over a map of 10 GB, and
/// the neighbours are seldom read. With the pages cached as 4 KiB folios (as the store's own writes leave
/// them, docs/SCALE.md "The page cache's folios"), each fault maps 16 pages one by one and the process's
/// exit unmaps them one by one: a large share of such a query's time (docs/SCALE.md, "Fault-around off for a
/// query's process"). `MADV_RANDOM` does not turn it off (it turns off read-ahead only).
///
/// How: Linux skips fault-around in a range registered with a userfaultfd for write-protection
/// (`uffd_disable_fault_around` in mm/memory.c), since the pages it would map could be ones userspace means
/// to protect. With `UFFD_FEATURE_WP_ASYNC` (Linux 6.7) such a range needs no handler: a write to a protected
/// page is let through by the kernel itself, and no page is ever protected here (that takes
/// `UFFDIO_WRITEPROTECT`), so reads and writes go on as before. `UFFD_USER_MODE_ONLY` makes it allowed to any
/// process, whatever `vm.unprivileged_userfaultfd` says. Where any of it is missing (an older kernel, a
/// sandbox that refuses the call) the map keeps its fault-around: reads are slower, never different.
public enum FaultAround {
    /// Turns fault-around off for the `count` bytes at `start` (page-aligned), a shared map of a file opened
    /// for writing (Linux registers a shared map only if it could be written: `VM_MAYWRITE`), until the
    /// returned descriptor is closed or the range unmapped. Throws when the kernel can not.
    ///
    /// The corresponding C functions are `userfaultfd` and `ioctl` with `UFFDIO_API` and `UFFDIO_REGISTER`.
    public static func turnOff(_ start: UnsafeRawPointer, count: Int) throws(SystemError) -> FileDescriptor {
        let flags = O_CLOEXEC | O_NONBLOCK | veritrail_uffd_user_mode_only()
        let fd = FileDescriptor(rawValue: try valueOrErrno("userfaultfd") { veritrail_userfaultfd(flags) })
        do {
            var api = uffdio_api(api: veritrail_uffd_api(), features: veritrail_uffd_feature_wp_async(), ioctls: 0)
            try nothingOrErrno("ioctl(UFFDIO_API)") { ioctl(fd.rawValue, veritrail_uffdio_api(), &api) }
            var register = uffdio_register(range: uffdio_range(start: UInt64(UInt(bitPattern: start)), len: UInt64(count)),
                                           mode: veritrail_uffdio_register_mode_wp(), ioctls: 0)
            try nothingOrErrno("ioctl(UFFDIO_REGISTER)") { ioctl(fd.rawValue, veritrail_uffdio_register(), &register) }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }
}
