@testable import CastServer
import Testing

/// Channel names: what `--channel NAME=…` and `?channel=NAME` accept, and why they refuse the rest.
@Suite struct ChannelNameTests {
    @Test(arguments: ["main", "a", "0", "cam-1", "front_door", "9lives", String(repeating: "x", count: 32)])
    func namesOfTheAlphabetAreTaken(_ text: String) throws {
        #expect(try ChannelName(text).description == text)
    }

    @Test(arguments: [
        ("", "is empty"),
        (String(repeating: "x", count: 33), "longer than 32"),
        ("Cam", "has 'C'"),
        ("cam 1", "has ' '"),
        ("cam/1", "has '/'"),
        ("café", "has 'é'"),
        ("-cam", "must start with a letter or a digit"),
        ("_cam", "must start with a letter or a digit"),
    ])
    func otherTextsAreRefusedSayingWhy(_ text: String, _ problem: String) {
        #expect(throws: ChannelNameError.self) { try ChannelName(text) }
        do {
            _ = try ChannelName(text)
        } catch {
            #expect(error.description.contains(problem), "\(error.description)")
            #expect(error.description.contains("'\(text)'"))
        }
    }

    @Test func mainIsTheDefaultChannelsName() throws {
        #expect(ChannelName.main == (try ChannelName("main")))
    }
}
