import CastProtocol
import FilterKit
import Foundation
import FuzzMessages

/// One client text message, as the server handles it: parse (a refusal checked by ``parsedMessage``), then validate a filter command
/// against the catalog, and check that what passes (a filter's values, a seek, a window, a
/// `share`'s size and label, a look's name) lies in range; an error must encode as valid JSON (it may quote the input).
func fuzzCommands(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let message = parsedMessage(data, size) else { return 0 }
    switch message.command {
    case .session(.setFilter(let name, let params, _)):
        if let settings = try? FilterSettings(name: name, parameters: params) {
            for (key, value) in settings.values {
                let parameter = FilterCatalog.standard.descriptor(named: name)!.parameter(named: key)!
                precondition(value.isFinite && parameter.min <= value && value <= parameter.max, "\(key)=\(value) escaped validation")
            }
        }
    case .session(.take(.fade(let seconds))):
        precondition(TakeTransition.fadeDurations.contains(seconds), "fade of \(seconds) s escaped validation")
    case .session(.seek(let position)):
        precondition(position.isFinite && position >= 0, "seek position \(position) escaped validation")
    case .session(.share(let request?)):
        precondition((16...7680).contains(request.width) && (16...4320).contains(request.height)
                     && request.label.count <= ShareRequest.maximumLabelLength, "\(request) escaped validation")
    case .session(.saveLook(let name, _)), .session(.applyLook(let name, _)), .session(.deleteLook(let name)):
        precondition(Look.isValidName(name), "look name \(name) escaped validation")
    case .connection(.flow(let window)):
        precondition((0...ConnectionCommand.maximumWindow).contains(window), "window \(window) escaped validation")
    default:
        break
    }
    return 0
}
