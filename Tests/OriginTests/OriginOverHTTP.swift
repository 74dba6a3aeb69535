import Testing

/// The tests that talk to a running origin share it and switch its faults,
/// so they run one at a time (the trait applies to the nested suites).
@Suite(.serialized, .timeLimit(.minutes(30)))
enum OriginOverHTTP {}
