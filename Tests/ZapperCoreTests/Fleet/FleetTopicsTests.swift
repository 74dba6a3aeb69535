import Testing
@testable import ZapperCore

/// The topic layout, box ids and broker URLs of `[mqtt]`.
@Suite struct FleetTopicsTests {
    @Test func everyTopicIsUnderPrefixAndBox() {
        let topics = MQTTTopics(prefix: "zapper", boxID: "lobby-1")
        #expect(topics.state == "zapper/lobby-1/state")
        #expect(topics.availability == "zapper/lobby-1/availability")
        #expect(topics.event == "zapper/lobby-1/event")
        #expect(topics.reply == "zapper/lobby-1/reply")
        #expect(topics.screenshot == "zapper/lobby-1/screenshot")
        #expect(topics.commands == "zapper/lobby-1/command/+")
        #expect(topics.command("tune") == "zapper/lobby-1/command/tune")
        #expect(topics.verb(of: "zapper/lobby-1/command/volume") == "volume")
        #expect(topics.verb(of: "zapper/lobby-2/command/volume") == nil)
        #expect(topics.verb(of: "zapper/lobby-1/command/") == nil)
        #expect(topics.verb(of: "zapper/lobby-1/command/a/b") == nil)
        #expect(topics.verb(of: "zapper/lobby-1/state") == nil)
        #expect(MQTTTopics(prefix: "site/7", boxID: "b").state == "site/7/b/state")
    }

    @Test func hostNamesBecomeBoxIDs() {
        #expect(MQTTTopics.boxID(fromHostName: "lobby-tv") == "lobby-tv")
        #expect(MQTTTopics.boxID(fromHostName: "box1.hotel.example.net") == "box1-hotel-example-net")
        #expect(MQTTTopics.boxID(fromHostName: "Salle à manger #2") == "Salle-manger-2")
        #expect(MQTTTopics.boxID(fromHostName: "+/#") == "zapper")
        #expect(MQTTTopics.boxID(fromHostName: "") == "zapper")
        #expect(MQTTTopics.boxID(fromHostName: String(repeating: "a", count: 300)).count == 64)
        for name in ["x y", "a/b/+", "--", "é", "a.b_c-d"] {
            #expect(MQTTTopics.isValidBoxID(MQTTTopics.boxID(fromHostName: name)), "\(name)")
        }
        #expect(!MQTTTopics.isValidBoxID("a/b") && !MQTTTopics.isValidBoxID("") && !MQTTTopics.isValidBoxID("a+"))
        #expect(!MQTTTopics.isValidBoxID(String(repeating: "a", count: 65)))
    }

    @Test func prefixesAreCheckedLevelByLevel() {
        #expect(MQTTTopics.prefixProblem("zapper") == nil)
        #expect(MQTTTopics.prefixProblem("site/7/tv") == nil)
        #expect(MQTTTopics.prefixProblem("") == "is empty")
        #expect(MQTTTopics.prefixProblem("a/#") == "has an MQTT wildcard (+ or #)")
        #expect(MQTTTopics.prefixProblem("a/+/b") == "has an MQTT wildcard (+ or #)")
        #expect(MQTTTopics.prefixProblem("/zapper") == "has an empty level (a leading, trailing or doubled /)")
        #expect(MQTTTopics.prefixProblem("a//b") == "has an empty level (a leading, trailing or doubled /)")
        #expect(MQTTTopics.prefixProblem("a\u{0}b") == "has a control character")
    }

    @Test func brokerURLs() throws {
        #expect(try MQTTBroker.parse("mqtt://broker.lan").get() == MQTTBroker(host: "broker.lan", port: 1883, tls: false))
        #expect(try MQTTBroker.parse("mqtt://127.0.0.1:18830").get() == MQTTBroker(host: "127.0.0.1", port: 18830, tls: false))
        #expect(try MQTTBroker.parse("mqtts://mq.example.net/").get() == MQTTBroker(host: "mq.example.net", port: 8883, tls: true))
        #expect(try MQTTBroker.parse("mqtts://[::1]:8884").get() == MQTTBroker(host: "::1", port: 8884, tls: true))
        #expect(MQTTBroker(host: "::1", port: 8884, tls: true).description == "mqtts://[::1]:8884")
        func why(_ url: String) -> String? {
            if case .failure(let rejection) = MQTTBroker.parse(url) { return rejection.description }
            return nil
        }
        #expect(why("http://broker") == "\"http://broker\" is not an mqtt:// or mqtts:// URL")
        #expect(why("mqtt://user:pw@broker") == "has a user in it: use the username and password keys")
        #expect(why("mqtt://broker:0") == "port \"0\" is not a number from 1 to 65535")
        #expect(why("mqtt://broker:99999") == "port \"99999\" is not a number from 1 to 65535")
        #expect(why("mqtt://broker:x") == "port \"x\" is not a number from 1 to 65535")
        #expect(why("mqtt://") == "has no host")
        #expect(why("mqtt://broker/topic") == "has a path: only mqtt(s)://host:port")
        #expect(why("mqtt://bro ker") == "host \"bro ker\" has characters no host name has")
        #expect(why("mqtt://::1") == "has more than one : (an IPv6 address goes in [ ])")
    }

    @Test func aReloadDropsTheStartChannelOnly() {
        #expect(ReloadArguments.forReload(["zapper", "--lineup", "x.m3u", "--channel", "3", "--size", "320x180"])
            == ["zapper", "--lineup", "x.m3u", "--size", "320x180"])
        #expect(ReloadArguments.forReload(["zapper", "--channel=3", "--events", "e"]) == ["zapper", "--events", "e"])
        #expect(ReloadArguments.forReload(["zapper", "--channel"]) == ["zapper"])
        #expect(ReloadArguments.forReload(["zapper", "--", "--channel", "3"]) == ["zapper", "--", "--channel", "3"])
    }
}
