/// Content ratings turned into the youngest age they allow, so one limit (a
/// maximum age) works for every rating system a lineup or a guide may use.
///
/// Spelling is forgiving: case, spaces, hyphens and underscores are ignored
/// ("TV-14", "tv 14", "TV14"), a trailing or leading "+" is dropped ("16+"),
/// and "FSK"/"USK"/"ab" prefixes are read ("FSK 16", "ab 12").
///
/// Ages used: MPAA G 0, PG 10, PG-13 13, R 17, NC-17 18; US TV (VCHIP) TV-Y 0,
/// TV-G 0, TV-Y7 7, TV-PG 10, TV-14 14, TV-MA 17; BBFC U/Uc 0, PG 8, 12/12A 12,
/// 15, 18, R18 18; plain numbers as written (0…21); "X", "XXX", "Adult" 18.
/// "PG" without a system is read the stricter way (MPAA's 10); with the system
/// BBFC it is 8. Anything else ("NR", "Unrated", "") is unknown: `nil`.
public enum RatingAge {
    /// The age `rating` allows, or `nil` when it is not a rating we know.
    public static func age(of rating: String, system: String? = nil) -> Int? {
        let key = normalize(rating)
        if key.isEmpty { return nil }
        if let number = Int(key), (0...21).contains(number) { return number }
        let normalizedSystem = system.map(normalize)
        if key == "PG", normalizedSystem == "BBFC" { return 8 }
        if let age = named[key] { return age }
        // "FSK16", "USK12", "AB12", "12A", "R18", "+18": a known prefix or suffix around a number.
        for prefix in ["FSK", "USK", "AB", "KIJKWIJZER", "CSA", "R"] where key.hasPrefix(prefix) {
            if let number = Int(key.dropFirst(prefix.count)), (0...21).contains(number) { return number }
        }
        if key.hasSuffix("A"), let number = Int(key.dropLast()), (0...21).contains(number) { return number }
        return nil
    }

    /// The age a guide programme's rating allows.
    public static func age(of rating: ProgrammeRating) -> Int? {
        age(of: rating.value, system: rating.system)
    }

    static let named: [String: Int] = [
        // MPAA
        "G": 0, "PG": 10, "PG13": 13, "R": 17, "NC17": 18,
        // US TV parental guidelines (VCHIP)
        "TVY": 0, "TVG": 0, "TVY7": 7, "TVY7FV": 7, "TVPG": 10, "TV14": 14, "TVMA": 17,
        // BBFC and friends
        "U": 0, "UC": 0, "E": 0,
        // Adult
        "X": 18, "XXX": 18, "ADULT": 18, "ADULTS": 18,
    ]

    static func normalize(_ text: String) -> String {
        var key = text.uppercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" && $0 != "." }
        while key.hasSuffix("+") { key.removeLast() }
        while key.hasPrefix("+") { key.removeFirst() }
        return key
    }
}
