import Domain
import TestSupport
import Testing

/// The passcode gate (projections.md §3, rules 1–5) at its edges, on the value the rules and the `lockout`
/// query share.
@Suite("Lockout timeline")
struct LockoutTests {
    let t0 = Ev.time("2026-11-01T10:00:00Z")

    /// A gate with a passcode set at `t0`.
    func gate() -> Lockout {
        var gate = Lockout()
        gate.passcodeSet(at: t0)
        return gate
    }

    @Test("without a passcode the gate is unset")
    func unset() {
        #expect(Lockout().state(at: t0) == .unset)
        #expect(gate().state(at: t0) == .required)
    }

    @Test("two denials do not lock; the third locks for 60 s from its at")
    func thirdDenialLocks() {
        var g = gate()
        g.attempt(.denied, at: t0.adding(seconds: 1))
        g.attempt(.denied, at: t0.adding(seconds: 2))
        #expect(!g.isLocked(at: t0.adding(seconds: 2)))
        #expect(g.state(at: t0.adding(seconds: 2)) == .required)
        g.attempt(.denied, at: t0.adding(seconds: 3))
        #expect(g.lockedUntil == t0.adding(seconds: 63))
        #expect(g.state(at: t0.adding(seconds: 3)) == .locked)
        #expect(g.failures == 3 && g.denied == 3)
    }

    @Test("a lock holds until just before lockedUntil and is over exactly at it, failures cleared")
    func exactlyAtLockedUntil() {
        var g = gate()
        for s in 1...3 { g.attempt(.denied, at: t0.adding(seconds: Int64(s))) }
        let until = t0.adding(seconds: 63)
        #expect(g.isLocked(at: Timestamp(microseconds: until.microseconds - 1)))
        #expect(!g.isLocked(at: until))
        #expect(g.state(at: until) == .required)
        // An attempt exactly at lockedUntil starts from a clean count: one denial does not lock again.
        g.attempt(.denied, at: until)
        #expect(g.lockedUntil == nil)
        #expect(g.failures == 1)
    }

    @Test("a locked attempt while locked changes nothing but its count")
    func lockedAttempt() {
        var g = gate()
        for s in 1...3 { g.attempt(.denied, at: t0.adding(seconds: Int64(s))) }
        g.attempt(.locked, at: t0.adding(seconds: 10))
        #expect(g.locked == 1)
        #expect(g.lockedUntil == t0.adding(seconds: 63))
        #expect(g.lastOutcome == .locked)
    }

    @Test("granted opens the gate for 900 s: unlocked until just before, required exactly then")
    func grantedThen900Seconds() {
        var g = gate()
        g.attempt(.denied, at: t0.adding(seconds: 1))
        g.attempt(.granted, at: t0.adding(seconds: 2))
        #expect(g.failures == 0)
        let until = t0.adding(seconds: 902)
        #expect(g.unlockedUntil == until)
        #expect(g.state(at: Timestamp(microseconds: until.microseconds - 1)) == .unlocked)
        #expect(g.state(at: until) == .required)
    }

    @Test("the third denial ends an unlock")
    func denialsEndUnlock() {
        var g = gate()
        g.attempt(.granted, at: t0.adding(seconds: 1))
        for s in 2...4 { g.attempt(.denied, at: t0.adding(seconds: Int64(s))) }
        #expect(g.unlockedUntil == nil)
        #expect(g.state(at: t0.adding(seconds: 5)) == .locked)
    }

    @Test("passcode.set clears a lock and the failures, and requires the new passcode")
    func passcodeSetClearsLock() {
        var g = gate()
        for s in 1...3 { g.attempt(.denied, at: t0.adding(seconds: Int64(s))) }
        g.passcodeSet(at: t0.adding(seconds: 10))
        #expect(g.lockedUntil == nil && g.failures == 0 && g.unlockedUntil == nil)
        #expect(g.state(at: t0.adding(seconds: 10)) == .required)
        #expect(g.denied == 3, "the counts of attempts are history and stay")
    }
}
