import Testing

/// The tests that talk to a running origin, one at a time (the trait applies to the
/// nested suites): the fault tests switch faults on channels that others fetch, and
/// one clears them all.
@Suite(.serialized, .timeLimit(.minutes(30)))
enum OriginOverHTTP {}
