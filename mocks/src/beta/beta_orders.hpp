#pragma once
/**
 * @file beta_orders.hpp
 * mock-beta's order endpoints, the wire side (upstreams/beta.md §4.3, §5, §7): parameters of
 * `POST /fapi/v3/order` and `POST /api/v3/order` checked in the upstream's order (names,
 * mandatory parameters per type, precision, filters), and the answers' shapes as recorded
 * (tests/fixtures/beta/ccxt-createOrder.json, -cancelOrder, -fetchOrder, -setLeverage,
 * -cancelAllOrders).
 *
 * Checks, first failure answers (futures codes; spot uses -1013 "Filter failure: <FILTER>"
 * for the filter checks):
 * 1. symbol (-1102, -1121), side (-1102, -1117), type (-1102, -1116; spot has no trailing),
 *    positionSide (BOTH only: LONG/SHORT -4061), timeInForce (-1115; LIMIT needs one, -1102),
 *    newOrderRespType ACK/RESULT (spot also FULL; -1130), the booleans reduceOnly,
 *    closePosition, priceProtect and workingType MARK_PRICE/CONTRACT_PRICE (-1130),
 *    newClientOrderId (-4015).
 * 2. closePosition=true: STOP_MARKET / TAKE_PROFIT_MARKET only (-1106), without quantity
 *    (-4137) or reduceOnly (-1106).
 * 3. Mandatory per type (-1102): quantity; price (LIMIT, STOP, TAKE_PROFIT); stopPrice (the
 *    stop and take-profit kinds); callbackRate (trailing). A price on a market kind is -1106.
 *    A number that does not parse is -1102 (malformed).
 * 4. Precision (-1111): quantity beyond quantityPrecision, prices beyond pricePrecision.
 * 5. Filters: quantity > 0 (-4003), >= minQty (-4004), <= maxQty of LOT_SIZE or, for the
 *    market kinds, MARKET_LOT_SIZE (-4005); each price >= minPrice (-4013), <= maxPrice
 *    (-4002), on the tick (-4014); callbackRate 0.1..5 (-1130); a LIMIT BUY at most
 *    mark * multiplierUp (-4016), a LIMIT SELL at least mark * multiplierDown (-4024);
 *    notional (price, else stopPrice, else the mark, times quantity) >= 5 unless reduce-only
 *    or closePosition (-4164).
 */
#include "beta_ledger.hpp"
#include "beta_markets.hpp"
#include "beta_matching.hpp"
#include "beta_public.hpp"

#include "../common/amount.hpp"
#include "../common/http_util.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <variant>

namespace gateway::mocks::beta {

/// A checked new order.
struct new_order {
    order_spec spec;
    bool result = false; ///< newOrderRespType RESULT (or FULL): answer the final state
};

/// Checks 1-5 on a new order's parameters; `mark` is the symbol's mark now.
std::variant<new_order, refusal> parse_new_order(venue where, query_params const& q, amount mark);

/// The order named by `orderId` or `origClientOrderId` (id 0 when by client id).
struct order_ref {
    std::string symbol;
    std::uint64_t order_id = 0;
    std::string client_id;
};

/// `symbol` (-1102, -1121) and `orderId` (-1100) or `origClientOrderId` (-1102 when neither).
std::variant<order_ref, refusal> parse_order_ref(venue where, query_params const& q);

/// How a futures order is answered: a new order (beta.md §4.3 object), a cancel (the recorded
/// cancel: no avgPrice) or a query (the recorded fetchOrder: `time`, no cumQty).
enum class order_form { placed, canceled, queried };

/// A futures order object.
boost::json::object futures_order_json(order_record const& r, contract const& c, order_form f);
/// A spot order object (the recorded spot createOrder/cancelOrder; a query adds `time`).
boost::json::object spot_order_json(order_record const& r, spot_def const& s, order_form f);
/// `POST /fapi/v3/leverage` answer.
boost::json::object leverage_json(std::string const& symbol, unsigned leverage,
                                  amount max_notional);
/// `DELETE /fapi/v3/allOpenOrders` answer (`code` a string, as recorded).
boost::json::object cancel_all_json();

} // namespace gateway::mocks::beta
