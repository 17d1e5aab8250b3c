import CastProtocol
import FilterKit
import Foundation
import Testing

/// The look file (one JSON file per saved look, written by hand or by the server) and the look
/// commands: what is taken, what is refused and how the refusal reads.
@Suite struct LookTests {
    private func parse(_ text: String, expectedName: String? = nil) throws(LookError) -> Look {
        try LookParser.parse(Array(text.utf8), expectedName: expectedName)
    }

    private func refusal(_ text: String, expectedName: String? = nil) -> String {
        do {
            let look = try parse(text, expectedName: expectedName)
            return "taken: \(look)"
        } catch {
            return error.reason
        }
    }

    @Test func aFileWrittenByHandIsTakenWithItsChainAsSetFilterTakesIt() throws {
        let look = try parse(#"{"name":"warm","chain":[{"name":"lut","params":{"lut":"kodak","intensity":0.8}},{"name":"vignette"}]}"#,
                             expectedName: "warm")
        #expect(look == Look(name: "warm", created: nil, chain: [
            FilterLinkRequest(name: "lut", params: ["lut": "kodak", "intensity": 0.8]), FilterLinkRequest(name: "vignette"),
        ]))
    }

    @Test func whatTheServerWritesReadsBackTheSame() throws {
        let chain = try FilterChain([FilterSettings(name: "sepia", parameters: ["intensity": 0.25]), FilterSettings(name: "invert")])
        let look = Look(name: "old-film", chain: chain, created: Date(timeIntervalSince1970: 1_796_300_000))
        let text = String(decoding: look.encoded(), as: UTF8.self)
        #expect(text.hasPrefix("{\n") && text.hasSuffix("}\n") && text.contains(#""created" : "2026-12-03T"#))
        #expect(try parse(text, expectedName: "old-film") == look)
        // Applied again, its chain is the one it was saved from.
        #expect(try FilterChain(validating: look.chain.map(\.unvalidated)) == chain)
    }

    /// A link's region is kept (left out for all) and read back.
    @Test func aLookKeepsItsLinksRegions() throws {
        let catalog = FilterCatalog.standard.offeringRegions { filter, _ in filter }
        let chain = try FilterChain(validating: [("sepia", [:], .background), ("vignette", [:], .all), ("invert", [:], .person)],
                                    catalog: catalog)
        let look = Look(name: "presenter", chain: chain)
        let text = String(decoding: look.encoded(), as: UTF8.self)
        #expect(text.components(separatedBy: #""region""#).count == 3 && text.contains(#""region" : "background""#))
        let read = try parse(text, expectedName: "presenter")
        #expect(read.chain.map(\.region) == [.background, .all, .person])
        #expect(try FilterChain(validating: read.chain.map(\.unvalidated), catalog: catalog) == chain)
        #expect(refusal(#"{"name":"warm","chain":[{"name":"sepia","region":"sky"}]}"#, expectedName: "warm")
                    .contains("look.chain[0].region must be one of"))
    }

    @Test func theEmptyChainIsTheLookOfNoFilter() throws {
        let look = Look(name: "plain", chain: .none)
        #expect(look.chain == [FilterLinkRequest(name: "none")])
        #expect(try FilterChain(validating: look.chain.map(\.unvalidated)) == .none)
    }

    @Test(arguments: [
        ("[1]", "a look is a JSON object {\"name\", \"created\", \"chain\"}, got an array"),
        ("{\"name\":", "not JSON"),
        (#"{"chain":[{"name":"sepia"}]}"#, "look.name is required"),
        (#"{"name":"Warm","chain":[{"name":"sepia"}]}"#, "look.name must be 1 to 32 of a-z 0-9 _ -"),
        (#"{"name":"cool","chain":[{"name":"sepia"}]}"#, #"look.name is "cool" but the file is named for "warm""#),
        (#"{"name":"warm"}"#, "look.chain is required"),
        (#"{"name":"warm","chain":[]}"#, "look.chain must have 1…8 filters, got 0"),
        (#"{"name":"warm","chain":[{"params":{}}]}"#, "look.chain[0].name is required"),
        (#"{"name":"warm","chain":[{"name":"sepia","params":{"x":[1]}}]}"#, "look.chain[0].params.x must be a number or a choice's id"),
        (#"{"name":"warm","created":7,"chain":[{"name":"sepia"}]}"#, "look.created must be a string, got 7"),
    ])
    func aFileThatIsNotALookIsRefusedSayingWhy(text: String, reason: String) {
        #expect(refusal(text, expectedName: "warm").contains(reason), "\(refusal(text, expectedName: "warm"))")
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() {
        let text = #"{"name":"warm","chain":[{"name":"sepia"}],"pad":""# + String(repeating: " ", count: LookParser.maximumBytes) + "\"}"
        #expect(refusal(text).hasPrefix("a look file is at most 65536 bytes"))
    }

    @Test func theLookCommandsParse() throws {
        let cases: [(String, SessionCommand)] = [
            (#"{"type":"saveLook","name":"warm"}"#, .saveLook(name: "warm", from: .program)),
            (#"{"type":"saveLook","name":"warm","from":"preview"}"#, .saveLook(name: "warm", from: .preview)),
            (#"{"type":"deleteLook","name":"a_1-b"}"#, .deleteLook(name: "a_1-b")),
            (#"{"type":"setFilter","look":"warm"}"#, .applyLook(name: "warm", to: .program)),
            (#"{"type":"setFilter","look":"warm","to":"program"}"#, .applyLook(name: "warm", to: .program)),
            (#"{"type":"setFilter","look":"warm","to":"preview"}"#, .applyLook(name: "warm", to: .preview)),
        ]
        for (json, command) in cases {
            #expect(try ClientMessageParser.parse(json).command == .session(command), "\(json)")
        }
    }

    @Test(arguments: [
        (#"{"type":"saveLook"}"#, ErrorCode.invalidArgument, "saveLook.name is required: a look's name"),
        (#"{"type":"saveLook","name":"../x"}"#, .outOfRange, "saveLook.name must be a look's name: 1 to 32 of a-z 0-9 _ -, got \"../x\""),
        (#"{"type":"saveLook","name":7}"#, .invalidArgument, "saveLook.name must be a look's name"),
        (#"{"type":"saveLook","name":"a","from":"studio"}"#, .outOfRange, #"saveLook.from must be one of "program", "preview""#),
        (#"{"type":"deleteLook","name":""}"#, .outOfRange, "deleteLook.name must be a look's name"),
        (#"{"type":"setFilter","look":"a","name":"sepia"}"#, .invalidArgument, "setFilter takes a look, or name (+params), or chain: not look with setFilter.name"),
        (#"{"type":"setFilter","look":"a","chain":[]}"#, .invalidArgument, "not look with setFilter.chain"),
        (#"{"type":"setFilter","look":"a","to":1}"#, .invalidArgument, "setFilter.to must be one of"),
    ])
    func badLookCommandsAreRefusedNamingTheField(json: String, code: ErrorCode, message: String) {
        do {
            let parsed = try ClientMessageParser.parse(json)
            Issue.record("\(json) parsed: \(parsed)")
        } catch {
            #expect(error.code == code && error.message.contains(message), "\(error.message)")
        }
    }

    @Test func theLooksMessageListsNamesAndDates() {
        let message = ServerMessage.looks([LookEntry(Look(name: "a", created: nil, chain: [FilterLinkRequest(name: "none")]))])
        #expect(String(decoding: message.encoded(), as: UTF8.self) == #"{"looks":[{"created":null,"name":"a"}],"type":"looks"}"#)
    }
}

/// FuzzLookParser's seeds and regressions: each is taken or refused with a reason, never more.
@Suite struct LookCorpusTests {
    @Test func replaysTheFuzzCorpus() throws {
        let files = FuzzInputs.files(of: "look")
        #expect(files.count >= 6)
        var taken = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            do {
                let look = try LookParser.parse(bytes)
                #expect(try LookParser.parse(look.encoded(), expectedName: look.name) == look, "\(file.lastPathComponent)")
                taken += 1
            } catch {
                #expect(!error.reason.isEmpty, "\(file.lastPathComponent)")
            }
        }
        #expect(taken >= 4)
    }
}
