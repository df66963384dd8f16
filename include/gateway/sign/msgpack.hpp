#pragma once
/**
 * @file msgpack.hpp
 * The MessagePack subset alpha's action hash needs (`upstreams/alpha.md` §5.2), byte-identical
 * to Python `msgpack.packb(x)` (msgpack >= 1.0, `use_bin_type=True`): maps in insertion order,
 * strings, booleans, nil, integers in their smallest encoding, arrays. Written against the
 * MessagePack spec (Debian's msgpack-cxx conflicts with Boost 1.81, STYLE "Version traps").
 */
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>

#include <boost/json/value.hpp>

namespace gateway::sign {

/**
 * Encodes `v`: object -> map (fixmap/map16/map32, keys in `boost::json::object` order, never
 * sorted), array -> fixarray/array16/array32, string -> fixstr/str8/str16/str32, bool, null ->
 * nil, integers -> positive fixint/uint8..uint64 for values >= 0 and negative fixint/int8..int64
 * otherwise.
 * @par Errors VALIDATION_ERROR for a floating-point number (alpha never hashes floats; prices
 * and sizes are strings), naming the JSON path of the offending value.
 */
GATEWAY_DECL result<bytes> msgpack_encode(boost::json::value const& v);

/// As `msgpack_encode`, appending to `out`; on error `out` may hold a partial encoding.
GATEWAY_DECL result<void> msgpack_encode(boost::json::value const& v, bytes& out);

} // namespace gateway::sign

#include <gateway/sign/impl/msgpack.hpp>
