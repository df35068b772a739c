/// A table of at most `capacity` entries that forgets its least recently used entry to make room for
/// a new one: O(1) lookups, stores and evictions (a dictionary of slots in a doubly linked list kept
/// in an array). Not thread-safe; its owner holds it under a lock.
struct RecentlyUsedTable<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value?
        var older: Int?
        var newer: Int?
    }

    /// The most entries kept (at least 1).
    let capacity: Int
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest: Int?
    private var oldest: Int?

    /// Makes an empty table that keeps at most `capacity` entries (1 when given less).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many entries are kept.
    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used entry.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot].value
    }

    /// The value for `key`, leaving the order of use as it is.
    func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0].value }
    }

    /// Keeps `value` for `key` as the most recently used entry; when that takes the table past its
    /// capacity, the least recently used entry is forgotten and returned.
    @discardableResult
    mutating func set(_ value: Value, for key: Key) -> Key? {
        if let slot = slots[key] {
            nodes[slot].value = value
            moveToNewest(slot)
            return nil
        }
        var evicted: Key?
        if slots.count >= capacity, let last = oldest {
            evicted = nodes[last].key
            unlink(last)
            slots[nodes[last].key] = nil
            nodes[last].value = nil
            freeSlots.append(last)
        }
        let node = Node(key: key, value: value, older: newest, newer: nil)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        if let previous = newest { nodes[previous].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        return evicted
    }

    /// Forgets the entry for `key`, if any.
    mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        unlink(slot)
        nodes[slot].value = nil
        freeSlots.append(slot)
    }

    /// The least recently used key, the next one a full table forgets.
    var oldestKey: Key? { oldest.map { nodes[$0].key } }

    /// The keys from most to least recently used, for tests.
    var keysByRecentUse: [Key] {
        var keys: [Key] = []
        var cursor = newest
        while let slot = cursor {
            keys.append(nodes[slot].key)
            cursor = nodes[slot].older
        }
        return keys
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        nodes[slot].older = newest
        if let previous = newest { nodes[previous].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let older = nodes[slot].older, newer = nodes[slot].newer
        if let older { nodes[older].newer = newer } else { oldest = newer }
        if let newer { nodes[newer].older = older } else { newest = older }
        nodes[slot].older = nil
        nodes[slot].newer = nil
    }
}

extension RecentlyUsedTable: Sendable where Key: Sendable, Value: Sendable {}
extension RecentlyUsedTable.Node: Sendable where Key: Sendable, Value: Sendable {}
