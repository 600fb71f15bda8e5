import Foundation

/// Refresh calls and the flight the repository waits for.
extension RepositoryMachine {
    /// `observe()` was called (the observer itself comes next, with `.observerAdded`): the cache
    /// is read for it, if it is not already; something new for a paused automatic refresh, a
    /// chance to read a cache whose reading failed, and an automatic refresh check.
    mutating func observed(now: Date) -> [Action] {
        resumeAutomaticRefresh()
        var actions = observeIfNeeded(forObserver: true)
        guard let active, active.flight == nil, shouldRefreshAutomatically(.observed, now: now) else {
            return actions.isEmpty ? [.quiet(active == nil ? .noRequirements : .noRefreshNeeded)] : actions + emit()
        }
        actions += startWaiting(for: nil)
        return actions + emit()
    }

    /// Refresh calls, in the order they were made: a burst of them arrives as one input, and is
    /// decided once. Sorting the calls is plain code over a plain array, and the calls that join
    /// are appended to the wait in one go, with no copy of it: a burst of thousands of calls
    /// costs little more than one.
    mutating func refresh(_ calls: [RefreshCall], now: Date) -> [Action] {
        guard let tag = active?.requirements.tag else { return [.respond(calls, .skipped(reason: .cancelled))] }
        if active?.isAutomaticRefreshPaused == true { resumeAutomaticRefresh() }
        let hasCache = self.hasCache
        let unforcedFetches =
            calls.contains { if case .refresh(force: false) = $0.kind { true } else { false } }
            ? needsRefresh(force: false, now: now) : true
        func waits(_ call: RefreshCall) -> Bool {
            switch call.kind {
            case .ifNoCache: !hasCache
            case .refresh(let force): force || unforcedFetches
            }
        }
        var answeredAtOnce: [RefreshCall] = []
        var fresh: [RefreshCall] = []
        // The usual burst: every call waits. It is taken as it came, with no copy.
        var waiting = calls.allSatisfy(waits) ? calls : []
        if waiting.isEmpty {
            for call in calls {
                if waits(call) {
                    waiting.append(call)
                } else if case .ifNoCache = call.kind {
                    answeredAtOnce.append(call)
                } else {
                    fresh.append(call)
                }
            }
        }
        var actions: [Action] = []
        if !answeredAtOnce.isEmpty {
            actions.append(.respond(answeredAtOnce, .successful))
        }
        if !fresh.isEmpty {
            let skipped = TellerLogEvent.refreshSkipped(tag: tag, reason: .dataNotTooOld)
            actions += [
                .logRepeated(skipped, count: fresh.count), .respond(fresh, .skipped(reason: .dataNotTooOld)),
            ]
        }
        if !answeredAtOnce.isEmpty || !fresh.isEmpty {
            actions += rereadIfNeeded()
        }
        guard let first = waiting.first else { return actions }
        var joining = waiting.count
        if active?.flight == nil {
            actions += startWaiting(for: first) + emit()
            waiting.removeFirst()
            joining -= 1
        }
        if !waiting.isEmpty {
            active?.flight?.calls.append(contentsOf: waiting)
        }
        if joining > 0 {
            actions.append(.logRepeated(.refreshJoined(tag: tag), count: joining))
        }
        return actions
    }

    /// Reads a cache that is not observed now (its reading failed, or was never started).
    private mutating func rereadIfNeeded() -> [Action] {
        let reread = observeIfNeeded()
        return reread.isEmpty ? [] : reread + emit()
    }

    /// `call` waits for a flight: joins the one the repository waits for, or starts waiting for
    /// one. `nil` is the machine's own request.
    mutating func startWaiting(for call: RefreshCall?) -> [Action] {
        guard let tag = active?.requirements.tag else {
            return call.map { [.respond([$0], .skipped(reason: .cancelled))] } ?? []
        }
        if active?.flight != nil {
            // In place, with no copy of `active` alive: a copy of the calls would make a burst
            // of joins quadratic.
            guard let call else {
                active?.flight?.isOwnRequest = true
                return []
            }
            active?.flight?.calls.append(call)
            return [.log(.refreshJoined(tag: tag))]
        }
        guard let requirements = active?.requirements else { return [] }
        nextFlightWaitID += 1
        let effects = ext.flightStarting()
        let flight = FlightWait(
            id: nextFlightWaitID,
            startedWithCache: active?.lastFetched != nil,
            calls: call.map { [$0] } ?? [],
            isOwnRequest: call == nil,
            held: ext.holdsFlightJoins
        )
        active?.flight = flight
        let join: [Action] = flight.isHeld ? [] : [.joinFlight(requirements, flight: flight.id)]
        return apply(effects) + join
    }

    /// A call's `Single` was disposed before it was answered. When no call is left and the
    /// machine did not ask for the flight itself, the repository leaves the flight (it is
    /// cancelled if nobody else waits either); the wait ends once the engine says it left.
    mutating func refreshCallLeft(_ call: RefreshCall) -> [Action] {
        guard let tag = active?.requirements.tag, let index = active?.flight?.calls.firstIndex(where: { $0 === call })
        else {
            // Answered meanwhile, or its requirements ended: nothing waits for it any more.
            return [.quiet(.callGone)]
        }
        // In place, with no copy of the wait alive: a copy would copy the calls left, for every
        // call of a burst that leaves.
        active?.flight?.calls.remove(at: index)
        let skipped: Action = .log(.refreshSkipped(tag: tag, reason: .cancelled))
        guard let flight = active?.flight, flight.calls.isEmpty, !flight.isOwnRequest else { return [skipped] }
        switch flight.link {
        case .held(leaving: false):
            // A held join leaves when the extension releases it: the wait ends after the writes
            // that held it, as a joined one would.
            self.active?.flight?.link = .held(leaving: true)
            return [skipped]
        case .joined:
            self.active?.flight?.link = .leaving
            return [skipped, .leaveFlight(flight.id)]
        case .held(leaving: true), .leaving:
            return [skipped]
        }
    }

    /// The repository is out of the flight it asked to leave (it was not saving); `stored` is
    /// the tag's metadata now. Calls that came meanwhile, or the machine's own request, wait for
    /// a new flight.
    mutating func flightLeft(_ id: UInt64, stored: StoredFetch?) -> [Action] {
        guard let active, var flight = active.flight, flight.id == id, flight.link == .leaving else {
            return [.quiet(.otherFlight)]
        }
        guard flight.calls.isEmpty, !flight.isOwnRequest else {
            nextFlightWaitID += 1
            flight = FlightWait(
                id: nextFlightWaitID,
                startedWithCache: flight.startedWithCache,
                calls: flight.calls,
                isOwnRequest: flight.isOwnRequest,
                held: ext.holdsFlightJoins
            )
            self.active?.flight = flight
            return flight.isHeld ? [] : [.joinFlight(active.requirements, flight: flight.id)]
        }
        return endWait(result: .skipped(reason: .cancelled), lastFetched: stored?.lastFetched, stored: stored)
    }

    /// The flight the repository waits for fetched its data and saves it now: what the cache
    /// emits meanwhile is not shown.
    mutating func flightSaving(_ id: UInt64) -> [Action] {
        guard active?.flight?.id == id else { return [.quiet(.otherFlight)] }
        active?.flight?.isSaving = true
        ext.flightSaving()
        if case .on(let observation)? = active?.observation {
            active?.observation = .pausedForSave(observation)
        }
        return [.quiet(.noted)]
    }

    /// The flight failed and waits to try again, or its retry starts: show it.
    mutating func flightRetry(_ id: UInt64, pending: PendingRetry?) -> [Action] {
        // Only a joined wait shows the flight's retries: a wait being left ends soon.
        guard let flight = active?.flight, flight.id == id, case .joined(let shown) = flight.link, shown != pending
        else {
            return [.quiet(.otherFlight)]
        }
        active?.flight?.link = .joined(retry: pending)
        return emit()
    }

    /// The flight the repository waits for ended. `stored` is the tag's metadata after it: the
    /// truth, whatever changed it meanwhile (this flight's save, `Teller.clear()`, another
    /// repository); `saved` what its save brought beside the data.
    mutating func flightFinished(
        _ id: UInt64,
        result: RefreshResult,
        stored: StoredFetch?,
        saved: Parcel? = nil
    ) -> [Action] {
        guard let active, let flight = active.flight, flight.id == id else {
            // The repository left that flight (its calls left, or its requirements changed).
            return [.quiet(.otherFlight)]
        }
        // A subscription replaced here is started again at the wait's end (`endWait`).
        let reread = noteMark(stored?.isInvalidated ?? false)
        let respond: [Action] = flight.calls.isEmpty ? [] : [.respond(flight.calls, result)]
        var actions =
            reread + respond + endWait(result: result, lastFetched: stored?.lastFetched, stored: stored, saved: saved)
        // Invalidated while the flight ran: its data may predate the invalidation. Fetch once
        // more; a fetch that fails does not repeat this, so it cannot loop.
        if case .successful = result, self.active?.isInvalidated == true, hasObservers, self.active?.flight == nil {
            actions += startWaiting(for: nil) + emit()
        }
        return actions
    }

    /// The wait ends with `result`; `lastFetched` is the tag's fetch time now.
    private mutating func endWait(
        result: RefreshResult,
        lastFetched: Date?,
        stored: StoredFetch? = nil,
        saved: Parcel? = nil
    ) -> [Action] {
        let ended = updateActive { active -> [Action]? in
            guard let flight = active.flight.take() else { return nil }
            let hadCache = flight.startedWithCache
            switch result {
            case .successful:
                active.lastFetched = lastFetched ?? active.lastFetched
                active.oneShot = hadCache ? .refreshSucceeded : .firstFetchSucceeded
            case .failedError(let error):
                active.lastFetched = lastFetched
                active.oneShot = hadCache ? .refreshFailed(error) : .firstFetchFailed(error)
                active.isAutomaticRefreshPaused = true
            case .skipped:
                active.lastFetched = lastFetched
            }
            guard active.lastFetched == nil else { return [] }
            // No cache any more (`Teller.clear()` ran meanwhile): forget what was read and stop
            // observing, so a cache fetched later is read from a fresh subscription. A store that
            // only emits on change would never send the old subscription anything new.
            active.content = .notRead
            guard active.isSubscribed else { return [] }
            active.observation = .off
            return [.stopObservingCache]
        }
        guard case .some(.some(var actions)) = ended else { return [] }
        let effects = ext.flightFinished(result, saved: saved, stored: stored?.extra, isLast: true, context: context)
        actions += observeIfNeeded()
        return actions + emit() + apply(effects)
    }

    /// Something outside asks observed repositories to refresh: the app became active or the
    /// network came back (refresh a too-old cache, as automatic refresh would; something new, so
    /// it lifts a pause after a failure), or the refresh interval passed (fetch, whatever the age).
    mutating func triggered(_ trigger: RefreshTrigger, now: Date) -> [Action] {
        guard let active, hasObservers, active.flight == nil else {
            return [.quiet(active == nil ? .noRequirements : .noRefreshNeeded)]
        }
        switch trigger {
        case .appBecameActive, .networkAvailable:
            resumeAutomaticRefresh()
            guard shouldRefreshAutomatically(.appOrNetwork, now: now) else { return [.quiet(.noRefreshNeeded)] }
        case .interval:
            break
        }
        return startWaiting(for: nil) + emit()
    }

    /// A new observer: it gets the latest state (or, after shut-down, its end at once). Its
    /// `.observed` started reading the cache, unless the last observer left in between and
    /// stopped it: then it starts again here.
    mutating func observerAdded(_ observer: Observer) -> [Action] {
        guard !isShutDown else { return [.complete([observer])] }
        observers.append(observer)
        return observeIfNeeded() + [.greet(observer)]
    }

    /// An observer's subscription was disposed: it gets nothing more. When it was the last one,
    /// the cache is not read any more, and what was read is forgotten: unobserved, it would go
    /// stale. The next observer is shown the cache loading, then read anew.
    mutating func observerRemoved(_ id: UInt64) -> [Action] {
        guard let index = observers.firstIndex(where: { $0.id == id }) else { return [.quiet(.observerGone)] }
        observers.remove(at: index)
        guard observers.isEmpty, active?.isSubscribed == true else { return [.quiet(.noted)] }
        updateActive { active in
            active.observation = .off
            active.content = .notRead
        }
        return [.stopObservingCache] + emit()
    }
}
