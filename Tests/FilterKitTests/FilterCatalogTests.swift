import Foundation
import Testing
import FilterKit

@Suite("FilterCatalog")
struct FilterCatalogTests {
    let catalog = FilterCatalog.standard

    @Test("\"none\" comes first; names are unique and look up their descriptor")
    func names() {
        #expect(catalog.names.first == "none")
        #expect(Set(catalog.names).isSuperset(of: ["none", "sepia", "pixellate", "comic", "colorControls", "invert"]))
        // Grouped by category, in picker order: each category's filters stand together.
        let categories = catalog.descriptors.map(\.category)
        let runs = zip(categories, categories.dropFirst()).filter { $0 != $1 }.count + 1
        #expect(runs == Set(categories).count, "categories interleave: \(categories)")
        #expect(Set(catalog.names).count == catalog.names.count)
        #expect(catalog.names == catalog.descriptors.map(\.name))
        for descriptor in catalog.descriptors {
            #expect(catalog.descriptor(named: descriptor.name) == descriptor)
            #expect(!descriptor.label.isEmpty)
            #expect(Set(descriptor.params.map(\.name)).count == descriptor.params.count, "\(descriptor.name): duplicate parameter")
        }
        #expect(catalog.descriptor(named: "blur") == nil)
        #expect(catalog.descriptor(named: "none")?.category == FilterDescriptor.Category.none)
        #expect(catalog.descriptor(named: "none")?.params.isEmpty == true)
    }

    @Test("Every parameter's default and slider range lie within its hard range",
          arguments: FilterCatalog.standard.descriptors.flatMap { d in d.params.map { (d.name, $0) } })
    func parameterRanges(filter: String, parameter p: ParameterDescriptor) {
        #expect(p.min < p.max, "\(filter).\(p.name)")
        #expect(p.min <= p.default && p.default <= p.max, "\(filter).\(p.name) default")
        #expect(p.min <= p.sliderMin && p.sliderMin < p.sliderMax && p.sliderMax <= p.max, "\(filter).\(p.name) slider")
        #expect(p.step > 0 && p.step <= p.max - p.min, "\(filter).\(p.name) step")
        if let identity = p.identity {
            #expect(p.min <= identity && identity <= p.max, "\(filter).\(p.name) identity")
        }
        if p.type == .integer {
            for value in [p.default, p.min, p.max, p.sliderMin, p.sliderMax] {
                #expect(value == value.rounded(), "\(filter).\(p.name): integer parameter with a fractional bound")
            }
        }
        // The default is accepted as it is.
        #expect((try? p.validate(p.default, filter: filter)) == p.default)
    }

    @Test("makeFilter builds the filter the settings name")
    func makeFilter() throws {
        #expect(catalog.makeFilter(.none) is NoFilter)
        #expect(try catalog.makeFilter(settings("sepia")) is SepiaFilter)
        #expect(try catalog.makeFilter(settings("pixellate", ["scale": 4])) is PixellateFilter)
        #expect(try (catalog.makeFilter(settings("pixellate", ["scale": 4])) as? PixellateFilter)?.scale == 4)
        #expect(try catalog.makeFilter(settings("comic")) is ComicFilter)
        for descriptor in catalog.descriptors {
            let filter = try catalog.makeFilter(settings(descriptor.name))
            #expect(type(of: filter).descriptor == descriptor)
        }
    }

    @Test("JSON of the descriptors has every key, identity as null when absent")
    func jsonKeys() throws {
        let data = try JSONEncoder().encode(catalog.descriptors)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(json.count == catalog.descriptors.count)
        let filterKeys: Set = ["name", "label", "category", "params"]
        let parameterKeys: Set = ["name", "label", "type", "default", "min", "max", "sliderMin", "sliderMax", "step", "identity"]
        var sawNullIdentity = false, sawNumberIdentity = false
        for (object, descriptor) in zip(json, catalog.descriptors) {
            #expect(Set(object.keys) == filterKeys, "\(descriptor.name)")
            #expect(object["name"] as? String == descriptor.name)
            #expect(object["label"] as? String == descriptor.label)
            #expect(object["category"] as? String == descriptor.category.rawValue)
            let params = try #require(object["params"] as? [[String: Any]], "\(descriptor.name)")
            #expect(params.count == descriptor.params.count)
            for (parameter, expected) in zip(params, descriptor.params) {
                #expect(Set(parameter.keys) == parameterKeys, "\(descriptor.name).\(expected.name)")
                #expect(parameter["name"] as? String == expected.name)
                #expect(parameter["type"] as? String == expected.type.rawValue)
                #expect((parameter["default"] as? NSNumber)?.doubleValue == expected.default)
                #expect((parameter["min"] as? NSNumber)?.doubleValue == expected.min)
                #expect((parameter["max"] as? NSNumber)?.doubleValue == expected.max)
                #expect((parameter["sliderMax"] as? NSNumber)?.doubleValue == expected.sliderMax)
                if let identity = expected.identity {
                    #expect((parameter["identity"] as? NSNumber)?.doubleValue == identity)
                    sawNumberIdentity = true
                } else {
                    #expect(parameter["identity"] is NSNull, "\(descriptor.name).\(expected.name) identity should be null")
                    sawNullIdentity = true
                }
            }
        }
        #expect(sawNullIdentity && sawNumberIdentity, "the standard catalog has both kinds")
        #expect(String(decoding: data, as: UTF8.self).contains("\"identity\":null"))
    }

    @Test("Descriptors survive a JSON round trip")
    func jsonRoundTrip() throws {
        let data = try JSONEncoder().encode(catalog.descriptors)
        let decoded = try JSONDecoder().decode([FilterDescriptor].self, from: data)
        #expect(decoded == catalog.descriptors)
    }

    @Test("Slider ranges default to the hard range")
    func sliderDefaults() {
        let p = ParameterDescriptor(name: "x", label: "X", default: 1, min: 0, max: 4, step: 0.5)
        #expect(p.sliderMin == 0 && p.sliderMax == 4)
        #expect(p.type == .number && p.identity == nil)
        let comicThreshold = catalog.descriptor(named: "comic")?.parameter(named: "edgeThreshold")
        #expect(comicThreshold?.sliderMax == 1)
        #expect(comicThreshold?.max == 2)
    }
}
