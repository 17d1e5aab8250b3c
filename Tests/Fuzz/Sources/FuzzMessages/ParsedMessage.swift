import CastProtocol
import Foundation

/// `size` bytes at `data` parsed as one client text message, as the server parses it; nil when
/// the parser refused them — after checking the refusal as every message fuzzer does: it has a
/// message and encodes as valid JSON (it may quote the input).
public func parsedMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> ClientMessage? {
    guard let data else { return nil }
    do {
        return try ClientMessageParser.parse(UnsafeRawBufferPointer(start: data, count: size))
    } catch {
        precondition(!error.message.isEmpty, "an error without a message")
        let encoded = Data(ServerMessage.error(error).encoded())
        precondition((try? JSONSerialization.jsonObject(with: encoded)) != nil, "error encodes as invalid JSON")
        return nil
    }
}
