import CastProtocol
import FilterKit
import Foundation
import Testing

@Suite("Server messages")
struct ServerMessageTests {
    static let fileSource = SourceState(kind: .file, name: "clip.mp4", seekable: true, width: 1280, height: 720, fps: 30,
                                        reference: "input")
    static let liveSource = SourceState(kind: .camera, name: "/dev/video0", seekable: false, width: 640, height: 480, fps: nil,
                                        reference: "input")

    static func state(source: SourceState = fileSource, duration: Double? = 60) throws -> SessionState {
        SessionState(source: source, playing: true, position: 12.5, duration: duration,
                     filter: FilterChain(try FilterSettings(name: "sepia", parameters: ["intensity": 0.75])), viewers: 2, fps: 29.97)
    }

    /// The message as a browser's `JSON.parse` would see it.
    static func object(_ message: ServerMessage) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(message.encoded()))
        return try #require(json as? [String: Any])
    }

    static let stateKeys: Set = ["source", "playing", "position", "frame", "duration", "speed", "loop", "filter", "chain", "program", "viewers", "fps", "recording", "renditions"]
    static let recordingKeys: Set = ["active", "name", "filtered", "elapsed", "bytes", "droppedFrames", "encoder", "error"]
    static let sourceKeys: Set = ["kind", "name", "seekable", "width", "height", "fps", "online", "reason", "retryIn",
                                  "startInput", "reference", "audio"]

    @Test func stateHasTheDocumentedKeys() throws {
        let object = try Self.object(.state(try Self.state()))
        #expect(Set(object.keys) == Self.stateKeys.union(["type"]))
        #expect(object["type"] as? String == "state")
        #expect(object["playing"] as? Bool == true)
        #expect(object["position"] as? Double == 12.5)
        #expect(object["duration"] as? Double == 60)
        #expect(object["viewers"] as? Int == 2)
        #expect(object["fps"] as? Double == 29.97)
        let source = try #require(object["source"] as? [String: Any])
        #expect(Set(source.keys) == Self.sourceKeys)
        #expect(source["kind"] as? String == "file")
        #expect(source["name"] as? String == "clip.mp4")
        #expect(source["seekable"] as? Bool == true)
        #expect(source["width"] as? Int == 1280)
        #expect(source["height"] as? Int == 720)
        #expect(source["fps"] as? Double == 30)
        #expect(source["online"] as? Bool == true && source["reason"] is NSNull && source["retryIn"] is NSNull)
        #expect(source["startInput"] as? Bool == true && source["reference"] as? String == "input")
        let filter = try #require(object["filter"] as? [String: Any])
        #expect(Set(filter.keys) == ["name", "params"])
        #expect(filter["name"] as? String == "sepia")
        #expect(filter["params"] as? [String: Double] == ["intensity": 0.75])
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.count == 1 && NSDictionary(dictionary: chain[0]).isEqual(to: filter))
    }

    /// `filter` is the first link, for clients that know one filter; `chain` has every link in order.
    @Test func stateShowsTheChainAndItsFirstLinkAsTheFilter() throws {
        var state = try Self.state()
        state.filter = try FilterChain([try FilterSettings(name: "invert"),
                                        try FilterSettings(name: "pixellate", parameters: ["scale": 4])])
        let object = try Self.object(.state(state))
        #expect(Set(object.keys) == Self.stateKeys.union(["type"]))
        let filter = try #require(object["filter"] as? [String: Any])
        #expect(filter["name"] as? String == "invert" && (filter["params"] as? [String: Double]) == [:])
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["name"] as? String } == ["invert", "pixellate"])
        #expect(chain.map { Set($0.keys) } == [["name", "params"], ["name", "params"]])
        #expect((chain[1]["params"] as? [String: Double])?["scale"] == 4)

        // A link on a region says so (v1 addition); links on the whole picture stay as they were.
        let regions = FilterCatalog.standard.offeringRegions { filter, _ in filter }
        state.filter = try FilterChain([try FilterSettings(name: "sepia", parameters: [:], region: .background, catalog: regions),
                                        try FilterSettings(name: "invert")])
        let regional = try #require(try Self.object(.state(state))["chain"] as? [[String: Any]])
        #expect(regional.map { $0["region"] as? String } == ["background", nil])
        #expect(regional.map { Set($0.keys) } == [["name", "params", "region"], ["name", "params"]])

        state.filter = .none
        let none = String(decoding: ServerMessage.state(state).encoded(), as: UTF8.self)
        #expect(none.contains(#""chain":[]"#) && none.contains(#""filter":{"name":"none","params":{}}"#))
    }

    @Test func liveStateHasNullDurationAndRate() throws {
        let text = String(decoding: ServerMessage.state(try Self.state(source: Self.liveSource, duration: nil)).encoded(), as: UTF8.self)
        #expect(text.contains(#""duration":null"#))
        #expect(text.contains(#""fps":null"#))
        let object = try Self.object(.state(try Self.state(source: Self.liveSource, duration: nil)))
        #expect(Set(object.keys) == Self.stateKeys.union(["type"]))
        #expect(object["duration"] is NSNull)
        let source = try #require(object["source"] as? [String: Any])
        #expect(Set(source.keys) == Self.sourceKeys)
        #expect(source["fps"] is NSNull)
    }

    @Test func anOfflineSourceSaysWhyAndWhenItIsRetried() throws {
        var offline = Self.liveSource
        offline.online = false
        offline.reason = "error reading udp://127.0.0.1:5004: no frame for 5 s"
        offline.retryIn = 3.5
        let object = try Self.object(.state(try Self.state(source: offline, duration: nil)))
        let source = try #require(object["source"] as? [String: Any])
        #expect(Set(source.keys) == Self.sourceKeys)
        #expect(source["online"] as? Bool == false)
        #expect(source["reason"] as? String == offline.reason)
        #expect(source["retryIn"] as? Double == 3.5)
    }

    @Test func numbersThatAreNotFiniteStillEncode() throws {
        var state = try Self.state()
        state.fps = .nan
        state.position = .infinity
        state.duration = .nan
        state.source.fps = .infinity
        let object = try Self.object(.state(state))
        #expect(object["fps"] as? Double == 0)
        #expect(object["position"] as? Double == 0)
        #expect(object["duration"] is NSNull)
        #expect((object["source"] as? [String: Any])?["fps"] is NSNull)
    }

    @Test func helloCarriesVersionServerCatalogAndState() throws {
        let catalog = FilterCatalog.standard.descriptors
        let object = try Self.object(.hello(filters: catalog, state: try Self.state(), access: .watch, renditions: []))
        #expect(Set(object.keys) == ["type", "version", "server", "access", "filters", "state",
                                     "maxChainLength", "categories", "errors", "transports", "renditions", "mediaFolder", "audio"])
        #expect(object["mediaFolder"] as? Bool == false)
        #expect(object["audio"] is NSNull, "no sound offered")
        let offered = try Self.object(.hello(filters: [], state: try Self.state(), access: .watch, renditions: [], features: ServerFeatures(audio: .wire)))
        let audio = try #require(offered["audio"] as? [String: Any])
        #expect(audio["codec"] as? String == "opus" && audio["channels"] as? Int == 2 && audio["rate"] as? Int == 48_000)
        #expect(object["access"] as? String == "watch")
        #expect(object["type"] as? String == "hello")
        #expect(object["version"] as? Int == 1)
        #expect(object["server"] as? String == "filtercast/0.1")
        let state = try #require(object["state"] as? [String: Any])
        #expect(Set(state.keys) == Self.stateKeys)
        // The catalog is the very objects FilterKit encodes (as `filtercast filters --json` prints them).
        let filters = try #require(object["filters"] as? [Any])
        let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode(catalog)) as? [Any]
        #expect(NSArray(array: filters).isEqual(to: try #require(expected)))
        let decoded = try JSONDecoder().decode([FilterDescriptor].self,
                                               from: JSONSerialization.data(withJSONObject: filters))
        #expect(decoded == catalog)
        let sepia = try #require(filters.compactMap { $0 as? [String: Any] }.first { $0["name"] as? String == "sepia" })
        #expect(Set(sepia.keys) == ["name", "label", "category", "params"])
    }

    @Test func helloOffersTheRenditionsAndTheirTransportsJPEGFirst() throws {
        let offer = [Rendition(id: "jpeg-720p", transport: .jpeg, width: 1280, height: 720),
                     Rendition(id: "h264-720p", transport: .h264, width: 1280, height: 720, bitsPerSecond: 2_500_000)]
        let object = try Self.object(.hello(filters: [], state: try Self.state(), access: .control, renditions: offer.reversed()))
        #expect(object["transports"] as? [String] == ["jpeg", "h264"])
        let renditions = try #require(object["renditions"] as? [[String: Any]])
        #expect(renditions.map { $0["id"] as? String } == ["h264-720p", "jpeg-720p"])
        #expect(renditions[0]["bitsPerSecond"] as? Int == 2_500_000 && renditions[0]["width"] as? Int == 1280)
        #expect(renditions[1]["bitsPerSecond"] == nil, "JPEG has no bit rate")
    }

    /// `uploads` only from a server that takes them (v1 addition: absent otherwise).
    @Test func helloSaysWhetherUploadsAreTaken() throws {
        let with = try Self.object(.hello(filters: [], state: try Self.state(), access: .control, renditions: [],
                                          features: ServerFeatures(uploads: UploadOffer(maxBytes: 2_000_000_000))))
        #expect((with["uploads"] as? [String: Any])?["maxBytes"] as? Int == 2_000_000_000)
        let without = try Self.object(.hello(filters: [], state: try Self.state(), access: .control, renditions: []))
        #expect(without["uploads"] == nil)
    }

    /// What a page would otherwise restate: the chain limit the parser enforces, a heading for
    /// every category the catalog uses, a name for every error code.
    @Test func helloNamesTheChainLimitCategoriesAndErrorCodes() throws {
        let catalog = FilterCatalog.standard.descriptors
        let object = try Self.object(.hello(filters: catalog, state: try Self.state(), access: .control, renditions: []))
        #expect(object["maxChainLength"] as? Int == FilterChain.maximumLength)
        let categories = try #require(object["categories"] as? [String: String])
        #expect(Set(categories.keys) == Set(FilterDescriptor.Category.allCases.map(\.rawValue)))
        #expect(Set(catalog.map(\.category.rawValue)).isSubset(of: categories.keys))
        #expect(categories["colorEffect"] == "Color effects" && categories["none"] == "None")
        #expect(categories.values.allSatisfy { !$0.isEmpty })
        let errors = try #require(object["errors"] as? [String: String])
        #expect(Set(errors.keys) == Set(ErrorCode.allCases.map(\.rawValue)))
        #expect(errors["out_of_range"] == "Out of range" && errors["rate_limited"] == "Too many commands")
        #expect(errors.values.allSatisfy { !$0.isEmpty })
        // Only hello carries them.
        #expect(try Self.object(.state(try Self.state()))["errors"] == nil)
    }

    @Test func errorHasCodeMessageAndIdOnlyWhenKnown() throws {
        let withID = try Self.object(.error(ProtocolError(code: .outOfRange, message: "flow.window must be…", id: .number(7))))
        #expect(Set(withID.keys) == ["type", "code", "message", "id"])
        #expect(withID["type"] as? String == "error")
        #expect(withID["code"] as? String == "out_of_range")
        #expect(withID["message"] as? String == "flow.window must be…")
        #expect(withID["id"] as? Int == 7)
        let withoutID = try Self.object(.error(ProtocolError(code: .badJSON, message: "not valid JSON")))
        #expect(Set(withoutID.keys) == ["type", "code", "message"])
    }

    @Test(arguments: [
        (ErrorCode.badJSON, "bad_json"), (.unknownType, "unknown_type"), (.invalidArgument, "invalid_argument"),
        (.unknownFilter, "unknown_filter"), (.outOfRange, "out_of_range"), (.notSeekable, "not_seekable"),
        (.tooLarge, "too_large"), (.unauthorized, "unauthorized"), (.rateLimited, "rate_limited"),
        (.forbidden, "forbidden"), (.notFound, "not_found"), (.openFailed, "open_failed"),
        (.recordingFailed, "recording_failed"),
    ])
    func errorCodesAreTheDocumentedStrings(_ code: ErrorCode, _ text: String) throws {
        let object = try Self.object(.error(ProtocolError(code: code, message: "m")))
        #expect(object["code"] as? String == text)
    }

    @Test func recordingHasEveryKeyAlways() throws {
        var state = try Self.state()
        let idle = try #require(try Self.object(.state(state))["recording"] as? [String: Any])
        #expect(Set(idle.keys) == Self.recordingKeys)
        #expect(idle["active"] as? Bool == false && idle["name"] is NSNull && idle["error"] is NSNull)
        state.recording = RecordingState(active: true, name: "2026-11-30T10-15-02Z.mp4", filtered: true, elapsed: 12.34567,
                                         bytes: 1_234_567, droppedFrames: 2, encoder: "libx264")
        let active = try #require(try Self.object(.state(state))["recording"] as? [String: Any])
        #expect(Set(active.keys) == Self.recordingKeys)
        #expect(active["name"] as? String == "2026-11-30T10-15-02Z.mp4")
        #expect(active["elapsed"] as? Double == 12.346)
        #expect(active["bytes"] as? Int == 1_234_567 && active["droppedFrames"] as? Int == 2)
        state.recording.elapsed = .nan
        #expect(try Self.object(.state(state))["recording"] != nil, "a non-finite time still encodes")
    }

    @Test func ackEchoesTheIdVerbatim() throws {
        #expect(String(decoding: ServerMessage.ack(.number(7)).encoded(), as: UTF8.self) == #"{"id":7,"type":"ack"}"#)
        #expect(String(decoding: ServerMessage.authorized(.number(3), access: .admin).encoded(), as: UTF8.self)
            == #"{"access":"admin","id":3,"type":"ack"}"#)
        #expect(String(decoding: ServerMessage.ack(.number(-2.5)).encoded(), as: UTF8.self) == #"{"id":-2.5,"type":"ack"}"#)
        #expect(String(decoding: ServerMessage.ack(.string("a/\"b")).encoded(), as: UTF8.self) == #"{"id":"a/\"b","type":"ack"}"#)
        let object = try Self.object(.ack(.string("x1")))
        #expect(Set(object.keys) == ["type", "id"])
        #expect(object["id"] as? String == "x1")
    }

    /// An id goes in with a command and comes back out in the ack unchanged.
    @Test(arguments: [#""req-1""#, "0", "42", "-7", "0.25", "9007199254740991", #""""#, #""日本""#])
    func idsRoundTripThroughParseAndAck(_ idJSON: String) throws {
        let message = try ClientMessageParser.parse(#"{"type":"play","id":"# + idJSON + "}")
        let id = try #require(message.id)
        #expect(String(decoding: ServerMessage.ack(id).encoded(), as: UTF8.self) == #"{"id":"# + idJSON + #","type":"ack"}"#)
        #expect(try JSONDecoder().decode(MessageID.self, from: Data(idJSON.utf8)) == id)
    }
}
