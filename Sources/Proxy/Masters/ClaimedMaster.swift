import HTTPServer

/// A master a subtitle set claims: the target and the set's position in `config.subtitleSets` (an
/// index rather than the set, which is many fields to copy on every hand-over).
struct ClaimedMaster: Sendable {
    let target: OriginTarget
    let setIndex: Int
}
