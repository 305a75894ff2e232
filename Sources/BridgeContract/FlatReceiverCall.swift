import Foundation

extension ReceiverCall {
    /// The common native → page message (a flat object of strings, numbers and booleans, named by the contract's
    /// one discriminator field) checked against its message and written in one pass, with no dictionary rebuilt.
    ///
    /// Nil whenever anything needs the general path (see `BridgeContract.walkFlat`), which then decides, so every
    /// refusal and its violations come from one place. A differential test proves that what this accepts, the
    /// general path accepts with the same script.
    init?(flat message: [String: any Sendable], contract: BridgeContract) {
        guard BridgeContract.isScriptPath(contract.receiver) else { return nil }
        var members: [(key: String, value: BodyValue)] = []
        members.reserveCapacity(message.count)
        let walked = contract.walkFlat(
            message, direction: .nativeToPage, mode: .strict, handler: contract.handler, transport: .postMessage,
            classify: { BodyValue(scalar: $0) }
        ) { key, scalar, _ in
            members.append((key, scalar))
            return true
        }
        guard walked != nil else { return nil }
        // Sorted as the writer sorts an object's keys (Swift's string order), so the text is the general path's.
        members.sort { $0.key < $1.key }
        var writer = JSONWriter(capacity: contract.receiver.utf8.count + 96)
        writer.append(contract.receiver)
        writer.append(UInt8(ascii: "("))
        do { try writer.write(members: members) } catch { return nil }
        writer.append(UInt8(ascii: ")"))
        self.init(script: writer.text, receiver: contract.receiver, members: members)
    }
}
