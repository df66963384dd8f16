#include "gamma_catalog.hpp"

#include "../common/ids.hpp"
#include "../common/rng.hpp"

namespace gateway::mocks::gamma {

namespace {

constexpr std::size_t token_digits = 77;

struct market_seed {
    char const* id;
    char const* question;
    char const* slug;
    char const* outcome_yes;
    char const* outcome_no;
    unsigned px_scale;
    std::int64_t yes_px;
    char const* volume;
    char const* liquidity;
    char const* volume_24hr;
};

market_def make_market(market_seed const& s, std::size_t event, event_def const& e) {
    market_def m;
    m.id = s.id;
    m.question = s.question;
    m.slug = s.slug;
    m.description = "This market will resolve to \"" + std::string(s.outcome_yes) +
                    "\" if the condition in the title is met by the end date; otherwise it "
                    "will resolve to \"" +
                    std::string(s.outcome_no) + "\".";
    m.outcomes[0] = s.outcome_yes;
    m.outcomes[1] = s.outcome_no;
    derive_ids(m);
    m.px_scale = s.px_scale;
    m.yes_px = s.yes_px;
    m.volume = s.volume;
    m.liquidity = s.liquidity;
    m.volume_24hr = s.volume_24hr;
    m.start_date = e.start_date;
    m.end_date = e.end_date;
    m.end_date_iso = e.end_date.substr(0, 10);
    m.created_at = e.creation_date;
    if (e.neg_risk)
        m.neg_risk_request_id = hash_hex(mix_seed(catalog_seed, std::stoull(m.id), 5));
    m.event = event;
    return m;
}

void add_event(catalog& c, event_def e, std::initializer_list<market_seed> markets) {
    std::size_t const idx = c.events.size();
    for (auto const& s : markets) {
        e.markets.push_back(c.markets.size());
        c.markets.push_back(make_market(s, idx, e));
    }
    c.events.push_back(std::move(e));
}

void close_market(market_def& m, bool resolved, char const* yes, char const* no,
                  char const* last_trade, std::string const& closed_time) {
    m.closed = true;
    m.resolved = resolved;
    m.uma_status = resolved ? "resolved" : "proposed";
    m.final_prices[0] = yes;
    m.final_prices[1] = no;
    m.last_trade = last_trade;
    m.closed_time = closed_time;
}

} // namespace

void derive_ids(market_def& m) {
    std::uint64_t const n = std::stoull(m.id);
    m.condition_id = hash_hex(mix_seed(catalog_seed, n, 1));
    m.question_id = hash_hex(mix_seed(catalog_seed, n, 2));
    m.token_ids[0] = decimal_digits(mix_seed(catalog_seed, n, 3), token_digits);
    m.token_ids[1] = decimal_digits(mix_seed(catalog_seed, n, 4), token_digits);
}

phase phase_of(market_def const& m) noexcept {
    if (m.resolved)
        return phase::resolved;
    return m.closed ? phase::closed : phase::active;
}

phase phase_of(catalog const& c, event_def const& e) noexcept {
    if (!e.closed)
        return phase::active;
    for (auto i : e.markets)
        if (!c.markets[i].resolved)
            return phase::closed;
    return phase::resolved;
}

catalog const& shared_catalog() {
    static catalog const c = build_catalog();
    return c;
}

catalog build_catalog() {
    catalog c;
    {
        event_def e;
        e.id = "16085";
        e.slug = "fed-decision-in-december-2026";
        e.title = "Fed decision in December?";
        e.description = "This event resolves according to the FOMC decision at its December "
                        "2026 meeting.";
        e.start_date = "2026-06-02T16:00:34.856648Z";
        e.creation_date = "2026-06-02T15:48:11.52834Z";
        e.end_date = "2026-12-09T12:00:00Z";
        e.neg_risk = true;
        e.neg_risk_market_id = hash_hex(mix_seed(catalog_seed, 16085, 9));
        e.volume = "48213977.31";
        e.liquidity = "3265115.42";
        e.open_interest = "5120443.87";
        e.volume_24hr = "1211533.9";
        e.tags = {{"100328", "Economy", "economy"}, {"159", "Fed Rates", "fed-rates"}};
        add_event(
            c, std::move(e),
            {{"516701", "Fed decreases interest rates by 25 bps after December 2026 meeting?",
              "fed-decreases-interest-rates-by-25-bps-after-december-2026-meeting", "Yes", "No", 2,
              62, "21583114.72", "1412331.08", "613201.5"},
             {"516702", "No change in Fed interest rates after December 2026 meeting?",
              "no-change-in-fed-interest-rates-after-december-2026-meeting", "Yes", "No", 2, 35,
              "19874002.11", "1288109.5", "498003.27"},
             {"516703", "Fed increases interest rates by 25+ bps after December 2026 meeting?",
              "fed-increases-interest-rates-by-25-bps-after-december-2026-meeting", "Yes", "No", 3,
              21, "6756860.48", "564674.84", "100329.13"}});
    }
    {
        event_def e;
        e.id = "16090";
        e.slug = "will-bitcoin-reach-150k-in-2026";
        e.title = "Will Bitcoin reach $150,000 in 2026?";
        e.description = "Resolves Yes if any Binance BTC/USDT 1-minute candle has a high at or "
                        "above $150,000 in 2026.";
        e.start_date = "2026-01-02T18:21:09.101Z";
        e.creation_date = "2026-01-02T18:20:41.7727Z";
        e.end_date = "2026-12-31T23:59:59Z";
        e.volume = "7512004.6";
        e.liquidity = "402117.93";
        e.open_interest = "0";
        e.volume_24hr = "88120.14";
        e.tags = {{"21", "Crypto", "crypto"}, {"235", "Bitcoin", "bitcoin"}};
        add_event(
            c, std::move(e),
            {{"516750", "Will Bitcoin reach $150,000 in 2026?", "will-bitcoin-reach-150k-in-2026",
              "Yes", "No", 2, 18, "7512004.6", "402117.93", "88120.14"}});
    }
    {
        event_def e;
        e.id = "16112";
        e.slug = "mlb-nyy-bos-2026-07-04";
        e.title = "Yankees vs. Red Sox";
        e.description = "MLB regular season game, Yankee Stadium, July 4, 2026.";
        e.start_date = "2026-06-28T08:02:22.334142Z";
        e.creation_date = "2026-06-28T08:01:34.856648Z";
        e.end_date = "2026-07-04T23:10:00Z";
        e.volume = "179054.06";
        e.liquidity = "174569.53";
        e.open_interest = "0";
        e.volume_24hr = "20311.7";
        e.tags = {{"1", "Sports", "sports"}, {"100381", "MLB", "mlb"}};
        add_event(c, std::move(e),
                  {{"516801", "Yankees vs. Red Sox", "mlb-nyy-bos-2026-07-04", "Yankees", "Red Sox",
                    2, 54, "151032.4", "121009.31", "18002.5"},
                   {"516802", "Yankees vs. Red Sox: O/U 8.5", "mlb-nyy-bos-2026-07-04-total-8pt5",
                    "Over", "Under", 2, 49, "28021.66", "53560.22", "2309.2"}});
    }
    {
        event_def e;
        e.id = "15877";
        e.slug = "nyc-rain-over-2-inches-in-june-2026";
        e.title = "Will NYC get more than 2 inches of rain in June 2026?";
        e.description = "Resolves by the NOAA Central Park monthly precipitation total.";
        e.start_date = "2026-05-20T14:00:00Z";
        e.creation_date = "2026-05-20T13:41:52.5512Z";
        e.end_date = "2026-06-30T23:59:59Z";
        e.closed = true;
        e.volume = "88211.19";
        e.liquidity = "0";
        e.open_interest = "0";
        e.volume_24hr = "0";
        e.closed_time = "2026-07-01 04:00:12+00";
        e.tags = {{"84", "Weather", "weather"}};
        add_event(
            c, std::move(e),
            {{"512044", "Will NYC get more than 2 inches of rain in June 2026?",
              "nyc-rain-over-2-inches-in-june-2026", "Yes", "No", 3, 999, "88211.19", "0", "0"}});
        close_market(c.markets.back(), false, "0.9995", "0.0005", "0.999",
                     "2026-07-01 04:00:12+00");
    }
    {
        event_def e;
        e.id = "903";
        e.slug = "presidential-election-winner-2024";
        e.title = "Presidential Election Winner 2024";
        e.description = "This is a market on who will win the 2024 US Presidential Election.";
        e.start_date = "2024-01-04T22:58:00Z";
        e.creation_date = "2024-01-04T22:57:10.123Z";
        e.end_date = "2024-11-05T12:00:00Z";
        e.category = "Politics";
        e.closed = true;
        e.neg_risk = true;
        e.neg_risk_market_id = hash_hex(mix_seed(catalog_seed, 903, 9));
        e.volume = "3686335059.29";
        e.liquidity = "0";
        e.open_interest = "0";
        e.volume_24hr = "0";
        e.closed_time = "2024-11-07 15:30:40+00";
        e.tags = {{"2", "Politics", "politics"},
                  {"144", "Elections", "elections"},
                  {"1101", "US Election", "us-election"}};
        add_event(c, std::move(e),
                  {{"253591", "Will Donald Trump win the 2024 US Presidential Election?",
                    "will-donald-trump-win-the-2024-us-presidential-election", "Yes", "No", 3, 1000,
                    "1531479285.4", "0", "0"},
                   {"253597", "Will Kamala Harris win the 2024 US Presidential Election?",
                    "will-kamala-harris-win-the-2024-us-presidential-election", "Yes", "No", 3, 0,
                    "1037039118.1", "0", "0"}});
        auto& m = c.markets;
        close_market(m[m.size() - 2], true, "1", "0", "0.999", "2024-11-07 15:30:40+00");
        close_market(m[m.size() - 1], true, "0", "1", "0.001", "2024-11-07 15:30:40+00");
    }
    add_generated_events(c);
    return c;
}

} // namespace gateway::mocks::gamma
