@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Testing

/// The Looks panel's thumbnails: asked for on the network thread, rendered from the next source
/// frame on the processing thread, served from the cache while fresh.
@Suite struct LookThumbnailsTests {
    @Test func aLookAskedForIsRenderedFromTheNextSourceFrameAndCached() throws {
        let thumbnails = try #require(LookThumbnails(source: (64, 48), catalog: .standard, rerender: RerenderRequest(wake: {})))
        #expect(thumbnails.size == (192, 144))
        let plain = Look(name: "plain", created: nil, chain: [FilterLinkRequest(name: "none")])
        let negative = Look(name: "negative", created: nil, chain: [FilterLinkRequest(name: "invert")])
        #expect(thumbnails.demand(now: .now) == .none, "nothing asked, nothing wanted")
        #expect(thumbnails.thumbnail(of: plain, now: .now) == nil && thumbnails.thumbnail(of: negative, now: .now) == nil)
        #expect(thumbnails.demand(now: .now) == OutputDemand(source: true, rerender: true, isActive: true))

        let frame = Frame(width: 64, height: 48)
        frame.y.fill(200)
        frame.u.fill(128)
        frame.v.fill(128)
        thumbnails.take(frame, FrameContext(kind: .new, isFiltered: false, filterGeneration: 0))
        #expect(thumbnails.demand(now: .now) == .none)
        let light = try #require(thumbnails.thumbnail(of: plain, now: .now))
        let dark = try #require(thumbnails.thumbnail(of: negative, now: .now))
        #expect(light.starts(with: [0xFF, 0xD8]) && dark.starts(with: [0xFF, 0xD8]) && light != dark)
        // Its own chain only: the same name with another chain is asked for again, the old one served meanwhile.
        let changed = Look(name: "plain", created: nil, chain: [FilterLinkRequest(name: "sepia")])
        #expect(thumbnails.thumbnail(of: changed, now: .now) == nil)
        #expect(thumbnails.thumbnail(of: plain, now: .now + .seconds(3)) == light, "an older one while the new is made")
        #expect(thumbnails.demand(now: .now).source)
    }
}
