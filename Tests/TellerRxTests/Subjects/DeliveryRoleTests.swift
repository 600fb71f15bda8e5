import Testing

@testable import TellerRx

/// The delivery role's hand-over, one step at a time (the threaded races are in
/// `SubjectStressTests`): a thread that queues behind the holder must stop the holder from
/// giving the role up without looking at the queue. (`#expect` cannot take a noncopyable
/// receiver, so each test records its steps and compares them at the end.)
@Suite struct DeliveryRoleTests {
    @Test func theFirstClaimWinsAndAQuietHolderGivesTheRoleUpWithoutTheLock() {
        let role = DeliveryRole()
        var steps: [Bool] = []
        steps.append(role.isHeld)
        steps.append(role.claimOrQueue())
        steps.append(role.isHeld)
        steps.append(role.releaseUnlessQueued())
        steps.append(role.isHeld)
        steps.append(role.claimOrQueue())  // free again
        #expect(steps == [false, true, true, true, false, true])
    }

    @Test func queueingBehindTheHolderMakesItDrainBeforeGivingTheRoleUp() {
        let role = DeliveryRole()
        var steps: [Bool] = []
        steps.append(role.claimOrQueue())
        steps.append(role.claimOrQueue())  // another thread queues…
        steps.append(role.releaseUnlessQueued())  // …so the holder may not just leave
        steps.append(role.isHeld)
        steps.append(role.claimOrQueue())  // it keeps the role while it drains
        role.release()  // the queue is empty
        steps.append(role.isHeld)
        #expect(steps == [true, false, false, true, false, false])
    }

    @Test func theHolderMarkingItsOwnQueueAlsoDrainsIt() {
        let role = DeliveryRole()
        var steps: [Bool] = []
        steps.append(role.claimOrQueue())
        role.markQueued()
        steps.append(role.releaseUnlessQueued())
        role.release()
        steps.append(role.claimOrQueue())
        #expect(steps == [true, false, true])
    }
}
