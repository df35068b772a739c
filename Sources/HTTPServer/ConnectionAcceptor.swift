import CSystem
import Glibc

extension EventLoop {
    /// Accepts until the backlog is empty. Over the cap, or out of descriptors, a connection is still
    /// accepted and told 503 rather than left to retry in a tight loop.
    func acceptConnections() {
        acceptPaused = false
        guard let listener else { return }
        if spareFD < 0 { spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        while true {
            let (result, remoteAddress) = listener.accept()
            switch result {
            case .wouldBlock:
                return
            case .done(let fd):
                adopt(Socket(fd: Int32(truncatingIfNeeded: fd)), remoteAddress: remoteAddress)
            case .failed(let error):
                switch error.errorNumber {
                case ECONNABORTED, EPROTO, EPERM:
                    // The peer gave up (or a firewall refused it) between SYN and accept: try the next one.
                    continue
                case EMFILE, ENFILE:
                    // The kernel reports EMFILE even with an empty backlog, so the outcome decides the loop.
                    switch refuseUsingSpareDescriptor(listener) {
                    case .refused: continue
                    case .backlogEmpty: return
                    case .noSpare:
                        acceptPaused = true
                        return
                    }
                default:
                    // ENOBUFS, ENOMEM and the like: retry from the timer tick, not in a tight loop. Said
                    // once per errno, so a pause is never silent and a persisting one does not flood the log.
                    if let code = error.errorNumber, loggedAcceptErrors.insert(code).inserted {
                        let name = HTTPServerError.errnoName(code)
                        configuration.log.log(.warning, "\(error.operation) failed: \(error.message) (\(name)); accepting pauses until the next timer tick",
                                              [("call", error.operation), ("errno", name)])
                    }
                    acceptPaused = true
                    return
                }
            }
        }
    }

    /// What freeing the spare descriptor achieved.
    private enum Refusal {
        case refused, backlogEmpty, noSpare
    }

    /// Out of descriptors: frees the spare, accepts one connection, answers 503, closes it, takes the spare back.
    private func refuseUsingSpareDescriptor(_ listener: Socket) -> Refusal {
        guard spareFD >= 0 else { return .noSpare }
        _ = Glibc.close(spareFD)
        spareFD = -1
        let (result, remoteAddress) = listener.accept()
        var outcome = Refusal.noSpare
        switch result {
        case .done(let fd):
            let socket = Socket(fd: Int32(truncatingIfNeeded: fd))
            socket.writeCanned(makeOverloadedResponse(remoteAddress: remoteAddress))
            socket.close()
            outcome = .refused
        case .wouldBlock:
            outcome = .backlogEmpty
        case .failed:
            outcome = .noSpare
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return spareFD >= 0 ? outcome : .noSpare
    }

    private func adopt(_ socket: Socket, remoteAddress: String) {
        nextID &+= 1
        let connection = Connection(socket: socket, id: nextID, remoteAddress: remoteAddress)
        let overCap = tally.value >= configuration.maxConnections || stopDeadline != nil
        if overCap, totalCount - serving >= EventLoop.maxLingering {
            socket.writeCanned(makeOverloadedResponse(remoteAddress: remoteAddress))
            socket.close()
            return
        }
        do {
            let events = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue
            try register(socket.fd, events: events, token: connection.token)
        } catch {
            socket.close()
            return
        }
        let fd = Int(socket.fd)
        if fd >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: fd - connections.count + 64))
        }
        connections[fd] = connection
        totalCount += 1
        if overCap {
            connection.isServing = false
            socket.writeCanned(makeOverloadedResponse(remoteAddress: remoteAddress))
            linger(connection)
            return
        }
        serving += 1
        tally.add(1)
        socket.setNoDelay()
        arm(connection, .idle)
    }

    /// The 503 sent to connections over the cap (reported to the rejection handler like any refusal).
    func makeOverloadedResponse(remoteAddress: String) -> [UInt8] {
        let error = RequestError(status: .serviceUnavailable, reason: "too many connections")
        var response = ResponseWriter.makeErrorResponse(for: error)
        if let rejectionHandler {
            let rejection = HTTPRejection(
                status: error.status, reason: error.reason, remoteAddress: remoteAddress, bodyBytes: response.body.count)
            response.headers.append(contentsOf: rejectionHandler(rejection))
        }
        let framing = ResponseWriter.Framing(
            isHeadRequest: false, keepAlive: false, requestVersion: .http1_1,
            date: date.current(), serverField: serverField)
        let (head, body) = ResponseWriter.serialize(response, framing: framing)
        return head + body
    }
}
