internal import Glibc

/// A thread of the system's own, for work that runs beside the caller for as long as it takes (decoding
/// an import's input, paging a write's map): no executor and no pool between the two.
public struct SystemThread: Sendable {
    private let handle: pthread_t

    /// The body a new thread runs, retained until it has.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread with a stack of `stackSize` bytes (the system's default when nil).
    /// A `detached` thread frees itself when `body` returns; any other must be `join`ed.
    ///
    /// The corresponding C functions are `pthread_attr_init`, `pthread_attr_setstacksize`,
    /// `pthread_attr_setdetachstate` and `pthread_create`.
    @discardableResult
    public static func start(stackSize: Int? = nil, detached: Bool = false,
                             _ body: @escaping @Sendable () -> Void) throws(SystemError) -> SystemThread {
        var attributes = pthread_attr_t()
        try nothingOrCode("pthread_attr_init") { pthread_attr_init(&attributes) }
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize {
            try nothingOrCode("pthread_attr_setstacksize") { pthread_attr_setstacksize(&attributes, stackSize) }
        }
        if detached {
            try nothingOrCode("pthread_attr_setdetachstate") {
                pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            }
        }
        // The thread holds the body until it has run it.
        let retained = Unmanaged.passRetained(Body(body))
        var handle = pthread_t()
        do throws(SystemError) {
            try nothingOrCode("pthread_create") {
                pthread_create(&handle, &attributes, { context in
                    guard let context else { return nil }
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, retained.toOpaque())
            }
        } catch {
            retained.release()
            throw error
        }
        return SystemThread(handle: handle)
    }

    /// Waits until the thread (not detached) has returned.
    ///
    /// The corresponding C function is `pthread_join`.
    public func join() {
        // Fails only for a detached or already joined thread, which is a bug of the caller's.
        _ = pthread_join(handle, nil)
    }
}
