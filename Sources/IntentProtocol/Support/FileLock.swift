#if canImport(Glibc)
import Glibc
#endif

/// `flock` on an open file, the one place it is called: retried when a signal interrupts it.
public enum FileLock {
    /// Takes an exclusive lock on `descriptor`, waiting for it unless `wait` is false.
    /// Returns 0, or the error: `EWOULDBLOCK` when another holds it and `wait` is false.
    public static func exclusive(_ descriptor: Int32, wait: Bool = true) -> Int32 {
        while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            guard errno == EINTR else { return errno }
        }
        return 0
    }
}
