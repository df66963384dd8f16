// The generated part of the Gamma catalog (gamma_catalog.hpp): about 180 events built from
// fixed tables, so ids, texts, dates, volumes and initial prices never depend on the mock's
// seed. Statuses follow the end dates against a fixed reference day (2026-11-24): events that
// ended more than a few days before it are resolved, recently ended ones closed with a
// resolution proposed (some disputed), later ones active. Names of films, songs, artists,
// companies and parties are invented; teams, cities, countries and coins are real names.
#include "gamma_catalog.hpp"
#include "gamma_time.hpp"

#include "../common/format.hpp"
#include "../common/ids.hpp"
#include "../common/rng.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>
#include <string_view>

namespace gateway::mocks::gamma {

namespace {

// ---------------------------------------------------------------------------------------------
// Tags (id, label, slug) as Gamma shows them; the first tag of an event is its category.

tag const t_politics{"2", "Politics", "politics"};
tag const t_elections{"144", "Elections", "elections"};
tag const t_us_election{"1101", "US Election", "us-election"};
tag const t_world{"101970", "World", "world"};
tag const t_government{"1597", "Government", "government"};
tag const t_sports{"1", "Sports", "sports"};
tag const t_nba{"745", "NBA", "nba"};
tag const t_nfl{"450", "NFL", "nfl"};
tag const t_soccer{"100350", "Soccer", "soccer"};
tag const t_epl{"306", "EPL", "epl"};
tag const t_nhl{"899", "NHL", "nhl"};
tag const t_mlb{"100381", "MLB", "mlb"};
tag const t_f1{"100389", "F1", "f1"};
tag const t_games{"100639", "Games", "games"};
tag const t_crypto{"21", "Crypto", "crypto"};
tag const t_bitcoin{"235", "Bitcoin", "bitcoin"};
tag const t_ethereum{"39", "Ethereum", "ethereum"};
tag const t_solana{"818", "Solana", "solana"};
tag const t_crypto_prices{"1312", "Crypto Prices", "crypto-prices"};
tag const t_etfs{"101289", "ETFs", "etfs"};
tag const t_up_down{"102127", "Up or Down", "up-or-down"};
tag const t_economy{"100328", "Economy", "economy"};
tag const t_fed_rates{"159", "Fed Rates", "fed-rates"};
tag const t_inflation{"702", "Inflation", "inflation"};
tag const t_jobs{"101238", "Jobs", "jobs"};
tag const t_gdp{"100196", "GDP", "gdp"};
tag const t_culture{"596", "Culture", "pop-culture"};
tag const t_movies{"53", "Movies", "movies"};
tag const t_music{"100329", "Music", "music"};
tag const t_awards{"1208", "Awards", "awards"};
tag const t_box_office{"1000", "Box Office", "box-office"};
tag const t_eurovision{"101340", "Eurovision", "eurovision"};
tag const t_weather{"84", "Weather", "weather"};
tag const t_climate{"87", "Climate", "climate"};
tag const t_science{"74", "Science", "science"};
tag const t_space{"1254", "Space", "space"};
tag const t_hurricanes{"101602", "Hurricanes", "hurricanes"};
tag const t_tech{"1401", "Tech", "tech"};
tag const t_ai{"439", "AI", "ai"};
tag const t_ipos{"101125", "IPOs", "ipos"};
tag const t_big_tech{"101999", "Big Tech", "big-tech"};

// ---------------------------------------------------------------------------------------------
// Drafts: what a family decides; `emit` turns a draft into catalog rows.

enum class gen_status { active, closed, resolved };

struct gen_market {
    std::string question;
    std::string slug;
    std::string group_title;
    std::string description; ///< empty: the event's
    std::array<std::string, 2> outcomes{"Yes", "No"};
    int p_milli = 500;          ///< active: initial YES probability in 1/1000
    int winner = 1;             ///< closed: 0 = outcome 0 won, 1 = outcome 1 won, 2 = void (50/50)
    bool brand_new = false;     ///< no volume/liquidity keys yet
    bool no_book = false;       ///< AMM era: enableOrderBook false
    bool settled_early = false; ///< resolved "No" while its event is still active
    unsigned force_scale = 0;   ///< 2 or 3 to pin the tick; 0 = by price
    std::string token_ids[2];   ///< non-empty: recorded ids (overrides the derived ones)
    std::string condition_id;   ///< non-empty: recorded condition id
};

struct gen_event {
    std::string slug;
    std::string title;
    std::string description;
    std::string resolution_source;
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::vector<tag> tags;
    bool neg_risk = false;
    bool featured = false;
    gen_status status = gen_status::active;
    std::string closed_uma = "proposed"; ///< closed events: "proposed" or "disputed"
    std::optional<std::string> price_to_beat;
    std::vector<gen_market> markets;
};

// The day the statuses are drawn against, and how long a resolution takes to settle.
std::int64_t const reference_day = unix_time(2026, 11, 24);
constexpr std::int64_t day_s = 86400;
constexpr std::int64_t hour_s = 3600;

std::array<char const*, 12> const month_names{"January",   "February", "March",    "April",
                                              "May",       "June",     "July",     "August",
                                              "September", "October",  "November", "December"};

std::string month_lower(unsigned m) {
    std::string s = month_names[m - 1];
    s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
    return s;
}

/// "November 2, 2026"
std::string long_date(int y, unsigned m, unsigned d) {
    return std::string(month_names[m - 1]) + " " + std::to_string(d) + ", " + std::to_string(y);
}

/// "november-2-2026"
std::string slug_date(int y, unsigned m, unsigned d) {
    return month_lower(m) + "-" + std::to_string(d) + "-" + std::to_string(y);
}

/// Lowercase letters and digits, words joined by '-', everything else dropped ("$120,000" ->
/// "120000"), as Polymarket's slugs read.
std::string slugify(std::string_view text) {
    std::string out;
    bool dash = false;
    for (char const c : text) {
        auto const u = static_cast<unsigned char>(c);
        if (std::isalnum(u)) {
            if (dash && !out.empty())
                out += '-';
            dash = false;
            out += static_cast<char>(std::tolower(u));
        } else if (c == ' ' || c == '-' || c == '/') {
            dash = true;
        }
    }
    return out;
}

/// Status by end date: resolved `settle_days` after the end, closed (proposed) until then.
gen_status status_for(std::int64_t end, int settle_days) {
    if (end >= reference_day)
        return gen_status::active;
    return end + settle_days * day_s <= reference_day ? gen_status::resolved : gen_status::closed;
}

/// Spreads 1000 per mille over `n` outcomes with seeded, skewed weights (each at least 3).
std::vector<int> probabilities(splitmix64& r, std::size_t n) {
    std::vector<std::int64_t> w(n);
    for (auto& x : w) {
        auto const a = r.between(1, 30);
        x = a * a;
    }
    std::int64_t const sum = std::accumulate(w.begin(), w.end(), std::int64_t{0});
    std::vector<int> p(n);
    if (sum == 0)
        return p;
    for (std::size_t i = 0; i < n; ++i)
        p[i] = std::max(3, static_cast<int>(w[i] * 1000 / sum));
    return p;
}

/// Index of the largest probability (the winner of a closed event drawn from the same weights).
std::size_t favourite(std::vector<int> const& p) {
    return static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
}

/// Marks market `win` of a closed negRisk draft as the winner and the others as losers.
void settle_group(gen_event& g, std::size_t win) {
    for (std::size_t i = 0; i < g.markets.size(); ++i)
        g.markets[i].winner = i == win ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------
// Emitting drafts into the catalog.

class emitter {
public:
    explicit emitter(catalog& c)
        : c_(c)
        , r_(mix_seed(catalog_seed, 0xe417)) {}

    void add(gen_event const& g) {
        event_def e;
        e.id = std::to_string(next_event_);
        next_event_ += 1 + r_.below(4);
        e.slug = g.slug;
        e.title = g.title;
        e.description = g.description;
        e.resolution_source = g.resolution_source;
        auto const created = g.start - r_.between(300, 7200);
        e.start_date = iso_micro(g.start, static_cast<std::uint32_t>(r_.below(1'000'000)));
        e.creation_date = iso_micro(created, static_cast<std::uint32_t>(r_.below(1'000'000)));
        e.end_date = iso_z(g.end);
        // Only events created before March 2026 still carry a category (gamma.md §2.1).
        if (g.start < unix_time(2026, 3, 1))
            e.category = g.tags.front().label;
        e.closed = g.status != gen_status::active;
        e.archived = g.status == gen_status::resolved && g.end < unix_time(2026, 3, 1);
        e.featured = g.featured;
        e.neg_risk = g.neg_risk;
        if (g.neg_risk)
            e.neg_risk_market_id = hash_hex(mix_seed(catalog_seed, std::stoull(e.id), 9));
        if (e.closed)
            e.closed_time = gamma_closed_time(g.end + r_.between(1800, 6 * hour_s));
        e.price_to_beat = g.price_to_beat;
        e.tags = g.tags;

        std::size_t const idx = c_.events.size();
        std::int64_t vol = 0, liq = 0, vol24 = 0;
        for (auto const& gm : g.markets) {
            market_def m = market(g, e, gm);
            m.event = idx;
            vol += cents_of(m.volume);
            liq += cents_of(m.liquidity);
            vol24 += cents_of(m.volume_24hr);
            e.markets.push_back(c_.markets.size());
            c_.markets.push_back(std::move(m));
        }
        e.volume = canonical(vol, 2);
        e.liquidity = canonical(liq, 2);
        e.volume_24hr = canonical(vol24, 2);
        e.open_interest = canonical(e.closed ? 0 : liq * r_.between(20, 60) / 100, 2);
        c_.events.push_back(std::move(e));
    }

private:
    static std::int64_t cents_of(std::optional<std::string> const& text) {
        if (!text)
            return 0;
        std::int64_t whole = 0, frac = 0;
        auto const dot = text->find('.');
        whole = std::stoll(text->substr(0, dot));
        if (dot != std::string::npos) {
            std::string f = text->substr(dot + 1, 2);
            f.resize(2, '0');
            frac = std::stoll(f);
        }
        return whole * 100 + frac;
    }

    market_def market(gen_event const& g, event_def const& e, gen_market const& gm) {
        market_def m;
        m.id = std::to_string(next_market_++);
        m.question = gm.question;
        m.slug = gm.slug;
        m.group_item_title = gm.group_title;
        m.outcomes[0] = gm.outcomes[0];
        m.outcomes[1] = gm.outcomes[1];
        m.description = gm.description.empty() ? g.description : gm.description;
        derive_ids(m);
        if (!gm.condition_id.empty())
            m.condition_id = gm.condition_id;
        if (!gm.token_ids[0].empty()) {
            m.token_ids[0] = gm.token_ids[0];
            m.token_ids[1] = gm.token_ids[1];
        }
        m.start_date = e.start_date;
        m.created_at = e.creation_date;
        m.end_date = e.end_date;
        m.end_date_iso = iso_day(g.end);
        if (g.neg_risk)
            m.neg_risk_request_id = hash_hex(mix_seed(catalog_seed, std::stoull(m.id), 5));

        bool const closed = g.status != gen_status::active || gm.settled_early;
        bool const resolved = g.status == gen_status::resolved || gm.settled_early;
        // Volumes in cents: games trade less than season-long and election markets.
        std::int64_t const volume = r_.between(2'000, 90'000) * r_.between(10, 400);
        if (!gm.brand_new) {
            m.volume = canonical(volume, 2);
            m.liquidity = canonical(closed ? 0 : volume * r_.between(2, 15) / 100, 2);
        }
        m.volume_24hr = canonical(closed || gm.brand_new ? 0 : volume * r_.between(1, 9) / 100, 2);

        if (closed) {
            m.closed = true;
            m.resolved = resolved;
            m.uma_status = resolved ? "resolved" : g.closed_uma;
            m.closed_time = gm.settled_early
                                ? gamma_closed_time(reference_day - r_.between(3, 40) * day_s)
                                : e.closed_time;
            m.px_scale = 3;
            int const winner = gm.settled_early ? 1 : gm.winner;
            if (winner == 2) {
                m.final_prices[0] = m.final_prices[1] = "0.5";
                m.last_trade = "0.5";
                m.yes_px = 500;
            } else {
                // A proposed (unsettled) resolution still trades at 0.9995 / 0.0005.
                std::string const hi = resolved ? "1" : "0.9995";
                std::string const lo = resolved ? "0" : "0.0005";
                m.final_prices[0] = winner == 0 ? hi : lo;
                m.final_prices[1] = winner == 0 ? lo : hi;
                m.last_trade = winner == 0 ? "0.999" : "0.001";
                m.yes_px = winner == 0 ? 1000 : 0;
            }
            return m;
        }
        int const p = std::clamp(gm.p_milli, 1, 999);
        m.px_scale = gm.force_scale ? gm.force_scale : (p < 50 || p > 950 ? 3 : 2);
        m.yes_px = m.px_scale == 3 ? std::clamp<std::int64_t>(p, 2, 998)
                                   : std::clamp<std::int64_t>((p + 5) / 10, 2, 98);
        if (gm.no_book) {
            m.order_book = false;
            std::int64_t const one = pow10(m.px_scale);
            m.final_prices[0] = canonical(m.yes_px, m.px_scale);
            m.final_prices[1] = canonical(one - m.yes_px, m.px_scale);
            m.last_trade = m.final_prices[0];
        }
        return m;
    }

    catalog& c_;
    splitmix64 r_;
    std::uint64_t next_event_ = 20001;
    std::uint64_t next_market_ = 600001;
};

// ---------------------------------------------------------------------------------------------
// Sports

struct team {
    char const* name;
    char const* abbr;
};

std::array<team, 16> const nba_teams{{{"Lakers", "lal"},
                                      {"Celtics", "bos"},
                                      {"Warriors", "gsw"},
                                      {"Knicks", "nyk"},
                                      {"Bucks", "mil"},
                                      {"Nuggets", "den"},
                                      {"Heat", "mia"},
                                      {"Suns", "phx"},
                                      {"76ers", "phi"},
                                      {"Mavericks", "dal"},
                                      {"Grizzlies", "mem"},
                                      {"Cavaliers", "cle"},
                                      {"Thunder", "okc"},
                                      {"Timberwolves", "min"},
                                      {"Kings", "sac"},
                                      {"Pacers", "ind"}}};

std::array<team, 12> const nfl_teams{{{"Chiefs", "kc"},
                                      {"Eagles", "phi"},
                                      {"Bills", "buf"},
                                      {"49ers", "sf"},
                                      {"Ravens", "bal"},
                                      {"Cowboys", "dal"},
                                      {"Lions", "det"},
                                      {"Packers", "gb"},
                                      {"Bengals", "cin"},
                                      {"Dolphins", "mia"},
                                      {"Jets", "nyj"},
                                      {"Steelers", "pit"}}};

std::array<team, 12> const epl_teams{{{"Arsenal", "ars"},
                                      {"Chelsea", "che"},
                                      {"Liverpool", "liv"},
                                      {"Manchester City", "mci"},
                                      {"Manchester United", "mun"},
                                      {"Tottenham", "tot"},
                                      {"Newcastle", "new"},
                                      {"Aston Villa", "avl"},
                                      {"Brighton", "bha"},
                                      {"West Ham", "whu"},
                                      {"Everton", "eve"},
                                      {"Fulham", "ful"}}};

std::array<team, 10> const nhl_teams{{{"Rangers", "nyr"},
                                      {"Bruins", "bos"},
                                      {"Maple Leafs", "tor"},
                                      {"Oilers", "edm"},
                                      {"Avalanche", "col"},
                                      {"Panthers", "fla"},
                                      {"Stars", "dal"},
                                      {"Lightning", "tb"},
                                      {"Golden Knights", "vgk"},
                                      {"Canucks", "van"}}};

/// Head-to-head games: a moneyline (outcomes = the two teams) and, every other game, a total.
template <std::size_t N>
void games(emitter& out, splitmix64& r, char const* league, tag const& league_tag,
           std::array<team, N> const& teams, std::size_t count, std::int64_t first,
           std::int64_t every, unsigned kickoff_hour, int total_base, bool totals) {
    for (std::size_t k = 0; k < count; ++k) {
        team const& away = teams[(2 * k) % N];
        team const& home = teams[(2 * k + 1 + 2 * (k / (N / 2))) % N];
        std::int64_t const day = first + static_cast<std::int64_t>(k) * every;
        std::int64_t const start = day + kickoff_hour * hour_s;
        std::string const date = iso_day(day);
        gen_event g;
        std::string const lg = slugify(league);
        g.slug = lg;
        g.slug.append("-").append(away.abbr).append("-").append(home.abbr).append("-").append(date);
        g.title = std::string(away.name) + " vs. " + home.name;
        g.description = std::string("In the upcoming ") + league + " game, scheduled for " + date +
                        ", the " + away.name + " play the " + home.name + ".\nIf the " + away.name +
                        " win, the market resolves to \"" + away.name + "\"; if the " + home.name +
                        " win, to \"" + home.name +
                        "\". If the game is postponed past the end of the season or canceled, "
                        "the market resolves 50-50.";
        g.resolution_source = "https://www.espn.com/";
        g.start = start - 6 * day_s;
        g.end = start;
        g.tags = {t_sports, league_tag, t_games};
        g.status = status_for(start, 2);
        gen_market ml;
        ml.question = g.title;
        ml.slug = g.slug;
        ml.outcomes = {away.name, home.name};
        ml.p_milli = static_cast<int>(r.between(250, 750));
        ml.winner = static_cast<int>(r.below(2));
        if (g.status == gen_status::resolved && k == 1)
            ml.winner = 2; // a postponed game, resolved 50-50
        g.markets.push_back(ml);
        if (totals && k % 2 == 0) {
            int const line = total_base + static_cast<int>(r.between(-6, 6));
            gen_market ou;
            ou.question = g.title + ": O/U " + std::to_string(line) + ".5";
            ou.slug = g.slug + "-total-" + std::to_string(line) + "pt5";
            ou.outcomes = {"Over", "Under"};
            ou.description = "In the upcoming " + std::string(league) + " game between the " +
                             away.name + " and the " + home.name + ", scheduled for " + date +
                             ": if the total points scored by both teams are greater than " +
                             std::to_string(line) +
                             ".5, the market resolves to \"Over\"; otherwise to \"Under\". "
                             "Overtime counts.";
            ou.p_milli = static_cast<int>(r.between(420, 580));
            ou.winner = static_cast<int>(r.below(2));
            ou.brand_new = g.status == gen_status::active && k % 4 == 0;
            g.markets.push_back(ou);
        }
        out.add(g);
    }
}

void soccer_games(emitter& out, splitmix64& r) {
    std::int64_t const first = unix_time(2026, 10, 3);
    for (std::size_t k = 0; k < 12; ++k) {
        team const& home = epl_teams[k];
        team const& away = epl_teams[(k + 5) % 12];
        std::int64_t const day = first + static_cast<std::int64_t>(k) * 7 * day_s;
        std::int64_t const start = day + 14 * hour_s;
        std::string const date = iso_day(day);
        gen_event g;
        g.slug = std::string("epl-") + home.abbr + "-" + away.abbr + "-" + date;
        g.title = std::string(home.name) + " vs. " + away.name;
        g.description = std::string("Premier League match on ") + date + ": " + home.name +
                        " (home) against " + away.name +
                        ". Each market resolves on the result after 90 minutes plus stoppage "
                        "time.";
        g.resolution_source = "https://www.premierleague.com/";
        g.start = start - 7 * day_s;
        g.end = start;
        g.tags = {t_sports, t_soccer, t_epl, t_games};
        g.neg_risk = true;
        g.status = status_for(start, 2);
        int const ph = static_cast<int>(r.between(300, 600));
        int const pd = static_cast<int>(r.between(200, 300));
        std::array<int, 3> const p{ph, pd, 1000 - ph - pd};
        std::array<std::string, 3> const titles{home.name, "Draw", away.name};
        std::array<std::string, 3> const questions{
            std::string("Will ") + home.name + " win on " + date + "?", g.title + " end in a draw?",
            std::string("Will ") + away.name + " win on " + date + "?"};
        for (std::size_t i = 0; i < 3; ++i) {
            gen_market m;
            m.question = i == 1 ? "Will " + questions[1] : questions[i];
            m.slug = g.slug + "-" + (i == 1 ? std::string("draw") : slugify(titles[i]));
            m.group_title = titles[i];
            m.p_milli = p[i];
            g.markets.push_back(m);
        }
        settle_group(g, r.below(3));
        out.add(g);
    }
}

struct futures_table {
    char const* slug;
    char const* title;
    char const* description;
    tag league;
    std::int64_t start, end;
    std::vector<char const*> entrants;
    bool featured;
};

void sports_futures(emitter& out, splitmix64& r) {
    std::vector<futures_table> const tables{
        {"nba-champion-2027",
         "NBA Champion 2027",
         "This market resolves to the team that wins the 2027 NBA Finals.",
         t_nba,
         unix_time(2026, 7, 1),
         unix_time(2027, 6, 30),
         {"Thunder", "Celtics", "Nuggets", "Knicks", "Cavaliers", "Timberwolves", "Warriors",
          "Lakers", "Bucks", "Mavericks"},
         true},
        {"super-bowl-champion-2027",
         "Super Bowl Champion 2027",
         "This market resolves to the team that wins Super Bowl LXI.",
         t_nfl,
         unix_time(2026, 2, 10),
         unix_time(2027, 2, 14),
         {"Chiefs", "Eagles", "Bills", "Ravens", "Lions", "49ers", "Packers", "Bengals", "Cowboys",
          "Steelers"},
         false},
        {"premier-league-winner-2026-27",
         "Premier League Winner 2026-27",
         "This market resolves to the club that finishes first in the 2026-27 Premier League.",
         t_epl,
         unix_time(2026, 5, 26),
         unix_time(2027, 5, 30),
         {"Arsenal", "Liverpool", "Manchester City", "Chelsea", "Newcastle", "Aston Villa",
          "Tottenham", "Manchester United"},
         false},
        {"stanley-cup-champion-2027",
         "Stanley Cup Champion 2027",
         "This market resolves to the team that wins the 2027 Stanley Cup Final.",
         t_nhl,
         unix_time(2026, 7, 2),
         unix_time(2027, 6, 25),
         {"Panthers", "Oilers", "Avalanche", "Stars", "Golden Knights", "Rangers", "Maple Leafs",
          "Lightning"},
         false},
        {"world-series-champion-2026",
         "World Series Champion 2026",
         "This market resolves to the team that wins the 2026 World Series.",
         t_mlb,
         unix_time(2025, 11, 5),
         unix_time(2026, 11, 2),
         {"Dodgers", "Yankees", "Phillies", "Braves", "Astros", "Orioles", "Mets", "Padres"},
         false},
    };
    for (auto const& t : tables) {
        gen_event g;
        g.slug = t.slug;
        g.title = t.title;
        g.description = t.description;
        g.resolution_source = "";
        g.start = t.start;
        g.end = t.end;
        g.tags = {t_sports, t.league};
        g.neg_risk = true;
        g.featured = t.featured;
        g.status = status_for(t.end, 5);
        auto const p = probabilities(r, t.entrants.size());
        for (std::size_t i = 0; i < t.entrants.size(); ++i) {
            gen_market m;
            std::string const who = t.entrants[i];
            m.question = "Will the " + who + " win the " + std::string(t.title) + "?";
            if (std::string_view(t.slug).starts_with("premier"))
                m.question = "Will " + who + " win the 2026-27 Premier League?";
            m.slug = "will-" + slugify(who) + "-win-" + t.slug;
            m.group_title = who;
            m.p_milli = p[i];
            g.markets.push_back(m);
        }
        settle_group(g, favourite(p));
        out.add(g);
    }
    // A season-long championship whose eliminated entrants resolve one by one (gamma.md §2.6):
    // the event stays active while two of its markets are already resolved "No".
    gen_event g;
    g.slug = "f1-constructors-champion-2026";
    g.title = "F1 Constructors' Champion 2026";
    g.description = "This market resolves to the team that wins the 2026 Formula 1 World "
                    "Constructors' Championship, per the FIA's final classification.";
    g.resolution_source = "https://www.fia.com/";
    g.start = unix_time(2026, 2, 20);
    g.end = unix_time(2026, 12, 6, 15);
    g.tags = {t_sports, t_f1};
    g.neg_risk = true;
    g.status = gen_status::active;
    std::array<char const*, 6> const teams{"McLaren",  "Ferrari",      "Red Bull Racing",
                                           "Mercedes", "Aston Martin", "Williams"};
    std::array<int, 6> const p{610, 170, 120, 96, 2, 2};
    for (std::size_t i = 0; i < teams.size(); ++i) {
        gen_market m;
        m.question = std::string("Will ") + teams[i] +
                     " win the 2026 F1 Constructors' "
                     "Championship?";
        m.slug = "will-" + slugify(teams[i]) + "-win-the-2026-f1-constructors-championship";
        m.group_title = teams[i];
        m.p_milli = p[i];
        m.settled_early = i >= 4;
        g.markets.push_back(m);
    }
    out.add(g);
}

// ---------------------------------------------------------------------------------------------
// Politics

void politics(emitter& out, splitmix64& r) {
    struct election {
        char const* country;
        int y;
        unsigned m, d;
    };
    std::array<election, 8> const elections{{{"Netherlands", 2025, 10, 29},
                                             {"Portugal", 2026, 1, 18},
                                             {"Denmark", 2026, 6, 14},
                                             {"Sweden", 2026, 9, 13},
                                             {"Czech Republic", 2026, 11, 21},
                                             {"Ireland", 2027, 3, 7},
                                             {"New Zealand", 2027, 10, 9},
                                             {"Norway", 2029, 9, 10}}};
    std::array<char const*, 5> const parties{"Social Democrats", "Conservatives", "Liberals",
                                             "Greens", "Another party"};
    for (auto const& el : elections) {
        gen_event g;
        std::string const country = el.country;
        g.title = country + " parliamentary election: which party wins the most seats?";
        g.slug =
            slugify(country) + "-parliamentary-election-" + std::to_string(el.y) + "-most-seats";
        g.description = "This market resolves to the party that wins the most seats in the " +
                        country + " parliamentary election held on " + long_date(el.y, el.m, el.d) +
                        ", per the official results. A tie resolves to the party with more "
                        "votes.";
        g.resolution_source = "";
        g.end = unix_time(el.y, el.m, el.d, 20);
        g.start = g.end - 240 * day_s;
        g.tags = {t_politics, t_elections, t_world};
        g.neg_risk = true;
        g.status = status_for(g.end, 7);
        if (g.status == gen_status::closed)
            g.closed_uma = "disputed"; // a recount contested the proposed result
        auto const p = probabilities(r, parties.size());
        for (std::size_t i = 0; i < parties.size(); ++i) {
            gen_market m;
            m.question = std::string("Will the ") + parties[i] + " win the most seats in the " +
                         country + " election?";
            if (i == parties.size() - 1)
                m.question =
                    "Will another party win the most seats in the " + country + " election?";
            m.slug = slugify(m.question.substr(0, m.question.size() - 1));
            m.group_title = parties[i];
            m.p_milli = p[i];
            g.markets.push_back(m);
        }
        settle_group(g, favourite(p));
        out.add(g);
    }

    struct leader {
        char const* country;
        char const* office;
        int y;
        unsigned m, d;
        int winner;
    };
    std::array<leader, 6> const leaders{{{"United Kingdom", "Prime Minister", 2026, 6, 30, 1},
                                         {"Japan", "Prime Minister", 2026, 9, 30, 0},
                                         {"Canada", "Prime Minister", 2026, 12, 31, 1},
                                         {"France", "Prime Minister", 2026, 11, 20, 0},
                                         {"Germany", "Chancellor", 2027, 6, 30, 1},
                                         {"Australia", "Prime Minister", 2027, 3, 31, 1}}};
    for (auto const& l : leaders) {
        gen_event g;
        std::string const d = long_date(l.y, l.m, l.d);
        g.title = std::string(l.country) + " " + l.office + " out by " + d + "?";
        g.slug =
            slugify(l.country) + "-" + slugify(l.office) + "-out-by-" + slug_date(l.y, l.m, l.d);
        g.description = std::string("This market resolves to \"Yes\" if the sitting ") + l.office +
                        " of " + l.country +
                        " announces a resignation, is removed or otherwise ceases to hold the "
                        "office by " +
                        d + ", 11:59 PM ET. Otherwise it resolves to \"No\".";
        g.end = unix_time(l.y, l.m, l.d, 23, 59, 59);
        g.start = g.end - 150 * day_s;
        g.tags = {t_politics, t_world};
        g.status = status_for(g.end, 7);
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = static_cast<int>(r.between(40, 450));
        m.winner = l.winner;
        g.markets.push_back(m);
        out.add(g);
    }

    struct shutdown {
        int y;
        unsigned m, d;
        int winner;
    };
    std::array<shutdown, 3> const shutdowns{{{2026, 1, 30, 1}, {2026, 9, 30, 0}, {2027, 1, 30, 1}}};
    for (auto const& s : shutdowns) {
        gen_event g;
        std::string const d = long_date(s.y, s.m, s.d);
        g.title = "US government shutdown by " + d + "?";
        g.slug = "us-government-shutdown-by-" + slug_date(s.y, s.m, s.d);
        g.description = "This market resolves to \"Yes\" if the OPM announces a lapse in "
                        "appropriations causing a US federal government shutdown by " +
                        d + ", 11:59 PM ET.";
        g.resolution_source = "https://www.opm.gov/";
        g.end = unix_time(s.y, s.m, s.d, 23, 59, 59);
        g.start = g.end - 60 * day_s;
        g.tags = {t_politics, t_government};
        g.status = status_for(g.end, 7);
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = static_cast<int>(r.between(100, 400));
        m.winner = s.winner;
        g.markets.push_back(m);
        out.add(g);
    }

    // The recorded fixtures' market (tests/fixtures/gamma: ccxt's JD Vance book, trades): its
    // condition and token ids are the recorded ones, its tick 0.001 and neg_risk true as there.
    gen_event g;
    g.slug = "presidential-election-winner-2028";
    g.title = "Presidential Election Winner 2028";
    g.description = "This is a market on who will win the 2028 US Presidential Election. It "
                    "resolves to the candidate projected winner by a consensus of major news "
                    "outlets, or certified by Congress.";
    g.start = unix_time(2024, 11, 20, 17);
    g.end = unix_time(2028, 11, 7, 12);
    g.tags = {t_politics, t_elections, t_us_election};
    g.neg_risk = true;
    g.featured = true;
    struct candidate {
        char const* name;
        int p;
    };
    std::array<candidate, 6> const candidates{{{"JD Vance", 152},
                                               {"Gavin Newsom", 214},
                                               {"Marco Rubio", 71},
                                               {"Alexandria Ocasio-Cortez", 58},
                                               {"Josh Shapiro", 49},
                                               {"Pete Buttigieg", 33}}};
    for (auto const& c : candidates) {
        gen_market m;
        m.question = std::string("Will ") + c.name + " win the 2028 US Presidential Election?";
        m.slug = slugify(m.question.substr(0, m.question.size() - 1));
        m.group_title = c.name;
        m.p_milli = c.p;
        m.force_scale = 3;
        g.markets.push_back(m);
    }
    g.markets[0].condition_id =
        "0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422";
    g.markets[0].token_ids[0] =
        "16040015440196279900485035793550429453516625694844857319147506590755961451627";
    g.markets[0].token_ids[1] =
        "94476829201604408463453426454480212459887267917122244941405244686637914508323";
    out.add(g);
}

// ---------------------------------------------------------------------------------------------
// Crypto

void crypto(emitter& out, splitmix64& r) {
    // "Will Bitcoin reach $N by December 31, 2026?": one market each; the nearer, the likelier.
    std::array<int, 7> const strikes{110, 120, 130, 140, 160, 175, 200};
    for (std::size_t i = 0; i < strikes.size(); ++i) {
        gen_event g;
        std::string const n = std::to_string(strikes[i]);
        g.title = "Will Bitcoin reach $" + n + ",000 by December 31, 2026?";
        g.slug = "will-bitcoin-reach-" + n + "k-by-december-31-2026";
        g.description = "This market resolves to \"Yes\" if any Binance 1-minute candle for "
                        "BTC/USDT between market creation and December 31, 2026, 11:59 PM ET "
                        "has a final \"High\" price of $" +
                        n + ",000 or higher. Otherwise it resolves to \"No\".";
        g.resolution_source = "https://www.binance.com/en/trade/BTC_USDT";
        g.start = unix_time(2025, 12, 30, 16);
        g.end = unix_time(2027, 1, 1, 4, 59, 59);
        g.tags = {t_crypto, t_bitcoin, t_crypto_prices};
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = std::max(8, 620 - static_cast<int>(i) * 95 + static_cast<int>(r.below(40)));
        g.markets.push_back(m);
        out.add(g);
    }

    // "Bitcoin price on <day>?": negRisk buckets of $5,000.
    struct day {
        unsigned m, d;
        int center; // thousands
    };
    std::array<day, 8> const days{{{9, 30, 112},
                                   {10, 16, 108},
                                   {10, 31, 104},
                                   {11, 13, 97},
                                   {11, 21, 94},
                                   {11, 28, 95},
                                   {12, 12, 96},
                                   {12, 31, 98}}};
    for (auto const& dd : days) {
        gen_event g;
        g.title = "Bitcoin price on " + long_date(2026, dd.m, dd.d) + "?";
        g.slug = "bitcoin-price-on-" + slug_date(2026, dd.m, dd.d);
        g.description = "This market resolves to the range containing the Binance BTC/USDT "
                        "1-minute candle close at 12:00 PM ET on " +
                        long_date(2026, dd.m, dd.d) + ".";
        g.resolution_source = "https://www.binance.com/en/trade/BTC_USDT";
        g.end = unix_time(2026, dd.m, dd.d, 17);
        g.start = g.end - 10 * day_s;
        g.tags = {t_crypto, t_bitcoin, t_crypto_prices};
        g.neg_risk = true;
        g.featured = dd.m == 12 && dd.d == 31;
        g.status = status_for(g.end, 3);
        int const lo = dd.center - 15;
        for (int b = 0; b < 6; ++b) {
            gen_market m;
            int const from = lo + 5 * b;
            if (b == 0)
                m.group_title = "<" + std::to_string(from + 5) + "k";
            else if (b == 5)
                m.group_title = ">" + std::to_string(from) + "k";
            else
                m.group_title = std::to_string(from) + "-" + std::to_string(from + 5) + "k";
            m.question = "Will the price of Bitcoin be " +
                         (b == 0   ? "less than $" + std::to_string(from + 5) + ",000"
                          : b == 5 ? "greater than $" + std::to_string(from) + ",000"
                                   : "between $" + std::to_string(from) + ",000 and $" +
                                         std::to_string(from + 5) + ",000") +
                         " on " + std::string(month_names[dd.m - 1]) + " " + std::to_string(dd.d) +
                         "?";
            m.slug = "bitcoin-" +
                     (b == 0   ? "below-" + std::to_string(from + 5)
                      : b == 5 ? "above-" + std::to_string(from)
                               : std::to_string(from) + "-" + std::to_string(from + 5)) +
                     "k-on-" + slug_date(2026, dd.m, dd.d);
            static constexpr std::array<int, 6> shape{40, 120, 330, 300, 150, 60};
            m.p_milli = shape[static_cast<std::size_t>(b)];
            g.markets.push_back(m);
        }
        settle_group(g, 2 + r.below(2));
        out.add(g);
    }

    // "Ethereum Up or Down on <day>?": outcomes Up/Down, eventMetadata.priceToBeat.
    for (unsigned k = 0; k < 10; ++k) {
        unsigned const d = 15 + k * 2; // November 15 ... December 3
        unsigned const m = d > 30 ? 12 : 11;
        unsigned const dm = d > 30 ? d - 30 : d;
        gen_event g;
        g.title = "Ethereum Up or Down on " + std::string(month_names[m - 1]) + " " +
                  std::to_string(dm) + "?";
        g.slug = "ethereum-up-or-down-on-" + month_lower(m) + "-" + std::to_string(dm);
        g.description = "This market resolves to \"Up\" if the Binance ETH/USDT 1-hour candle "
                        "close at 12:00 PM ET on " +
                        long_date(2026, m, dm) +
                        " is greater than or equal to the close 24 hours earlier (the price to "
                        "beat); otherwise to \"Down\".";
        g.resolution_source = "https://www.binance.com/en/trade/ETH_USDT";
        g.end = unix_time(2026, m, dm, 17);
        g.start = g.end - 2 * day_s;
        g.tags = {t_crypto, t_ethereum, t_up_down};
        g.status = status_for(g.end, 1);
        g.price_to_beat = canonical(300'000 + static_cast<std::int64_t>(r.between(0, 40'000)), 2);
        gen_market mk;
        mk.question = g.title;
        mk.slug = g.slug;
        mk.outcomes = {"Up", "Down"};
        mk.p_milli = static_cast<int>(r.between(400, 600));
        mk.winner = static_cast<int>(r.below(2));
        mk.brand_new = k == 9; // listed two days ahead, not traded yet
        g.markets.push_back(mk);
        out.add(g);
    }

    // "Solana above $N on <day>?"
    struct sol {
        unsigned m, d;
        int strike;
    };
    std::array<sol, 6> const sols{
        {{10, 31, 200}, {11, 7, 180}, {11, 21, 170}, {11, 30, 160}, {12, 15, 175}, {12, 31, 200}}};
    for (auto const& s : sols) {
        gen_event g;
        std::string const n = std::to_string(s.strike);
        g.title = "Solana above $" + n + " on " + long_date(2026, s.m, s.d) + "?";
        g.slug = "solana-above-" + n + "-on-" + slug_date(2026, s.m, s.d);
        g.description = "This market resolves to \"Yes\" if the Binance SOL/USDT 1-minute candle "
                        "close at 12:00 PM ET on " +
                        long_date(2026, s.m, s.d) + " is above $" + n + ".";
        g.resolution_source = "https://www.binance.com/en/trade/SOL_USDT";
        g.end = unix_time(2026, s.m, s.d, 17);
        g.start = g.end - 14 * day_s;
        g.tags = {t_crypto, t_solana, t_crypto_prices};
        g.status = status_for(g.end, 3);
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = static_cast<int>(r.between(150, 700));
        m.winner = static_cast<int>(r.below(2));
        g.markets.push_back(m);
        out.add(g);
    }

    // ETF approvals: long-dated, active.
    std::array<char const*, 4> const coins{"XRP", "Dogecoin", "Cardano", "Avalanche"};
    for (std::size_t i = 0; i < coins.size(); ++i) {
        gen_event g;
        std::string const coin = coins[i];
        g.title = "Spot " + coin + " ETF approved by June 30, 2027?";
        g.slug = "spot-" + slugify(coin) + "-etf-approved-by-june-30-2027";
        g.description = "This market resolves to \"Yes\" if the SEC approves a spot " + coin +
                        " exchange-traded fund by June 30, 2027, 11:59 PM ET.";
        g.resolution_source = "https://www.sec.gov/";
        g.start = unix_time(2026, 4, 2 + static_cast<unsigned>(i), 15);
        g.end = unix_time(2027, 7, 1, 3, 59, 59);
        g.tags = {t_crypto, t_etfs};
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = static_cast<int>(r.between(80, 800));
        m.brand_new = i + 1 == coins.size();
        g.markets.push_back(m);
        out.add(g);
    }
}

// ---------------------------------------------------------------------------------------------
// Economy

void economy(emitter& out, splitmix64& r) {
    struct meeting {
        int y;
        unsigned m, d;
        std::size_t decision; // index into the outcomes below
    };
    std::array<meeting, 9> const meetings{{{2026, 1, 28, 2},
                                           {2026, 3, 18, 2},
                                           {2026, 4, 29, 1},
                                           {2026, 6, 17, 2},
                                           {2026, 7, 29, 1},
                                           {2026, 9, 16, 1},
                                           {2026, 10, 28, 2},
                                           {2027, 1, 27, 0},
                                           {2027, 3, 17, 0}}};
    std::array<char const*, 4> const decisions{"50+ bps decrease", "25 bps decrease", "No change",
                                               "25+ bps increase"};
    std::array<char const*, 4> const questions{"Fed decreases interest rates by 50+ bps after ",
                                               "Fed decreases interest rates by 25 bps after ",
                                               "No change in Fed interest rates after ",
                                               "Fed increases interest rates by 25+ bps after "};
    for (auto const& mt : meetings) {
        gen_event g;
        std::string const month = month_names[mt.m - 1];
        std::string const when = month + " " + std::to_string(mt.y);
        g.title = "Fed decision in " + when + "?";
        g.slug = "fed-decision-in-" + month_lower(mt.m) + "-" + std::to_string(mt.y);
        g.description = "This event resolves according to the upper bound of the target federal "
                        "funds range announced after the FOMC meeting of " +
                        long_date(mt.y, mt.m, mt.d) + ", compared with the level before it.";
        g.resolution_source = "https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm";
        g.end = unix_time(mt.y, mt.m, mt.d, 18);
        g.start = g.end - 75 * day_s;
        g.tags = {t_economy, t_fed_rates};
        g.neg_risk = true;
        g.featured = mt.y == 2027 && mt.m == 1;
        g.status = status_for(g.end, 7);
        std::array<int, 4> p{40, 520, 420, 20};
        if (mt.decision == 0)
            p = {90, 560, 330, 20};
        for (std::size_t i = 0; i < decisions.size(); ++i) {
            gen_market m;
            m.question = std::string(questions[i]) + when + " meeting?";
            m.slug = slugify(m.question.substr(0, m.question.size() - 1));
            m.group_title = decisions[i];
            m.p_milli = p[i] + static_cast<int>(r.between(-15, 15));
            g.markets.push_back(m);
        }
        settle_group(g, mt.decision);
        out.add(g);
    }

    // "US CPI YoY in <month>?": buckets by the BLS release.
    std::array<unsigned, 6> const cpi_months{5, 6, 7, 8, 9, 10};
    std::array<char const*, 5> const cpi_buckets{"≤2.5%", "2.6%", "2.7%", "2.8%", "≥2.9%"};
    for (std::size_t k = 0; k < cpi_months.size(); ++k) {
        unsigned const m = cpi_months[k];
        gen_event g;
        std::string const month = month_names[m - 1];
        g.title = "US inflation YoY in " + month + " 2026?";
        g.slug = "us-inflation-yoy-in-" + month_lower(m) + "-2026";
        g.description = "This market resolves to the year-over-year CPI-U change for " + month +
                        " 2026 as first published by the Bureau of Labor Statistics, rounded "
                        "to one decimal.";
        g.resolution_source = "https://www.bls.gov/cpi/";
        // Released about six weeks after the month; the October figure comes out in December.
        g.end = unix_time(2026, m + 1, 1, 13, 30) + 44 * day_s;
        g.start = g.end - 45 * day_s;
        g.tags = {t_economy, t_inflation};
        g.neg_risk = true;
        g.status = status_for(g.end, 5);
        auto const p = probabilities(r, cpi_buckets.size());
        for (std::size_t i = 0; i < cpi_buckets.size(); ++i) {
            gen_market mk;
            std::string const b = cpi_buckets[i];
            mk.question = "Will US inflation YoY in " + month + " be " +
                          (i == 0   ? std::string("2.5% or lower")
                           : i == 4 ? std::string("2.9% or higher")
                                    : b) +
                          "?";
            mk.slug = "us-inflation-yoy-" + month_lower(m) + "-" +
                      (i == 0   ? std::string("2pt5-or-lower")
                       : i == 4 ? std::string("2pt9-or-higher")
                                : "2pt" + std::string(1, b[2]));
            mk.group_title = b;
            mk.p_milli = p[i];
            g.markets.push_back(mk);
        }
        settle_group(g, favourite(p));
        out.add(g);
    }

    struct single {
        char const* title;
        char const* description;
        tag second;
        std::int64_t start, end;
        int p;
        int winner;
    };
    std::vector<single> const singles{
        {"US recession in 2027?",
         "This market resolves to \"Yes\" if the NBER announces that a recession began in the "
         "United States at any point in 2027, or if two consecutive quarters of negative real "
         "GDP growth are reported for 2027.",
         t_gdp, unix_time(2026, 9, 1), unix_time(2028, 3, 31), 270, 1},
        {"US GDP growth in Q3 2026 above 2.0%?",
         "Resolves \"Yes\" if the BEA's advance estimate of annualized real GDP growth for Q3 "
         "2026 is above 2.0%.",
         t_gdp, unix_time(2026, 7, 1), unix_time(2026, 10, 29, 12, 30), 550, 0},
        {"Unemployment rate above 4.5% in September 2026?",
         "Resolves by the BLS Employment Situation report for September 2026.", t_jobs,
         unix_time(2026, 8, 1), unix_time(2026, 10, 2, 12, 30), 300, 1},
        {"Unemployment rate above 4.5% in October 2026?",
         "Resolves by the BLS Employment Situation report for October 2026.", t_jobs,
         unix_time(2026, 9, 1), unix_time(2026, 11, 6, 13, 30), 320, 0},
        {"Unemployment rate above 4.5% in November 2026?",
         "Resolves by the BLS Employment Situation report for November 2026.", t_jobs,
         unix_time(2026, 10, 1), unix_time(2026, 11, 20, 13, 30), 340, 1},
        {"Unemployment rate above 4.5% in December 2026?",
         "Resolves by the BLS Employment Situation report for December 2026.", t_jobs,
         unix_time(2026, 11, 1), unix_time(2027, 1, 8, 13, 30), 360, 1},
        {"US national average gas price above $4.00 by December 31, 2026?",
         "Resolves \"Yes\" if the AAA national average for regular gasoline is above $4.00 on "
         "any day by December 31, 2026.",
         t_inflation, unix_time(2026, 5, 1), unix_time(2027, 1, 1, 4, 59, 59), 90, 1},
        {"US national average gas price above $4.00 by June 30, 2026?",
         "Resolves \"Yes\" if the AAA national average for regular gasoline is above $4.00 on "
         "any day by June 30, 2026.",
         t_inflation, unix_time(2025, 12, 1), unix_time(2026, 7, 1, 3, 59, 59), 120, 1},
    };
    for (auto const& s : singles) {
        gen_event g;
        g.title = s.title;
        g.slug = slugify(std::string_view(s.title).substr(0, std::string_view(s.title).size() - 1));
        g.description = s.description;
        g.start = s.start;
        g.end = s.end;
        g.tags = {t_economy, s.second};
        g.status = status_for(g.end, 7);
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = s.p;
        m.winner = s.winner;
        g.markets.push_back(m);
        out.add(g);
    }

    gen_event g;
    g.title = "How many Fed rate cuts in 2027?";
    g.slug = "how-many-fed-rate-cuts-in-2027";
    g.description = "This market resolves to the number of 25 bps cuts (a 50 bps cut counts as "
                    "two) to the federal funds target range announced in 2027.";
    g.resolution_source = "https://www.federalreserve.gov/";
    g.start = unix_time(2026, 10, 1);
    g.end = unix_time(2027, 12, 31, 23);
    g.tags = {t_economy, t_fed_rates};
    g.neg_risk = true;
    std::array<char const*, 6> const counts{"0", "1", "2", "3", "4", "5+"};
    std::array<int, 6> const p{120, 210, 290, 210, 110, 60};
    for (std::size_t i = 0; i < counts.size(); ++i) {
        gen_market m;
        std::string const n = counts[i];
        m.question = i == 0   ? std::string("No Fed rate cuts in 2027?")
                     : i == 5 ? std::string("5 or more Fed rate cuts in 2027?")
                              : n + " Fed rate cut" + (i == 1 ? "" : "s") + " in 2027?";
        m.slug = slugify(m.question.substr(0, m.question.size() - 1));
        m.group_title = n;
        m.p_milli = p[i];
        g.markets.push_back(m);
    }
    out.add(g);
}

// ---------------------------------------------------------------------------------------------
// Culture

void culture(emitter& out, splitmix64& r) {
    struct group {
        char const* slug;
        char const* title;
        char const* description;
        char const* question; ///< with "%s" for the entrant
        std::vector<tag> tags;
        std::int64_t start, end;
        std::vector<char const*> entrants;
        bool featured;
    };
    std::vector<group> const groups{
        {"oscars-2027-best-picture-winner",
         "Oscars 2027: Best Picture Winner",
         "This market resolves to the film that wins Best Picture at the 99th Academy Awards.",
         "Will \"%s\" win Best Picture at the 2027 Oscars?",
         {t_culture, t_movies, t_awards},
         unix_time(2026, 3, 20),
         unix_time(2027, 3, 1, 4),
         {"The Long Harbor", "Glass Orchard", "Northern Lights Hotel", "Saltwater Kings",
          "A Quiet Republic", "The Cartographer", "Ember Season", "Paper Moons"},
         true},
        {"oscars-2027-best-actor-winner",
         "Oscars 2027: Best Actor Winner",
         "This market resolves to the winner of Best Actor at the 99th Academy Awards.",
         "Will %s win Best Actor at the 2027 Oscars?",
         {t_culture, t_movies, t_awards},
         unix_time(2026, 3, 20),
         unix_time(2027, 3, 1, 4),
         {"Adrian Vale", "Tomas Reyes", "Julian Marsh", "Desmond Okafor", "Luca Bellamy",
          "Henry Castell"},
         false},
        {"grammys-2027-album-of-the-year",
         "Grammys 2027: Album of the Year",
         "This market resolves to the album that wins Album of the Year at the 69th Grammy "
         "Awards.",
         "Will \"%s\" win Album of the Year at the 2027 Grammys?",
         {t_culture, t_music, t_awards},
         unix_time(2026, 9, 1),
         unix_time(2027, 2, 8, 4),
         {"Neon Psalms", "Low Tide Radio", "Cathedral Static", "Honey & Concrete", "Blue Hours",
          "Satellite Hearts"},
         false},
        {"highest-grossing-movie-of-2026",
         "Highest grossing movie of 2026?",
         "This market resolves to the film with the highest 2026 domestic box office gross per "
         "Box Office Mojo on December 31, 2026.",
         "Will \"%s\" be the highest grossing movie of 2026?",
         {t_culture, t_movies, t_box_office},
         unix_time(2026, 1, 5),
         unix_time(2026, 12, 31, 23),
         {"Starfall Legion", "Glass Orchard", "The Iron Choir", "Monsoon Run", "Little Comet",
          "Saltwater Kings"},
         false},
        {"eurovision-2027-winner",
         "Eurovision 2027 Winner",
         "This market resolves to the country that wins the Eurovision Song Contest 2027.",
         "Will %s win Eurovision 2027?",
         {t_culture, t_music, t_eurovision},
         unix_time(2026, 5, 20),
         unix_time(2027, 5, 16, 1),
         {"Sweden", "Italy", "Ukraine", "France", "Norway", "Finland", "Israel", "Croatia"},
         false},
    };
    for (auto const& gr : groups) {
        gen_event g;
        g.slug = gr.slug;
        g.title = gr.title;
        g.description = gr.description;
        g.start = gr.start;
        g.end = gr.end;
        g.tags = gr.tags;
        g.neg_risk = true;
        g.featured = gr.featured;
        g.status = status_for(g.end, 5);
        auto const p = probabilities(r, gr.entrants.size());
        for (std::size_t i = 0; i < gr.entrants.size(); ++i) {
            gen_market m;
            std::string q = gr.question;
            q.replace(q.find("%s"), 2, gr.entrants[i]);
            m.question = q;
            m.slug = slugify(q.substr(0, q.size() - 1));
            m.group_title = gr.entrants[i];
            m.p_milli = p[i];
            g.markets.push_back(m);
        }
        settle_group(g, favourite(p));
        out.add(g);
    }

    struct opening {
        char const* film;
        int y;
        unsigned m, d;
        int millions;
    };
    std::array<opening, 8> const openings{{{"Starfall Legion", 2026, 5, 3, 150},
                                           {"Monsoon Run", 2026, 7, 19, 90},
                                           {"The Iron Choir", 2026, 9, 13, 60},
                                           {"Little Comet", 2026, 11, 1, 75},
                                           {"Night Ferry", 2026, 11, 22, 40},
                                           {"Glass Orchard II", 2026, 12, 20, 110},
                                           {"Paper Moons", 2027, 2, 14, 35},
                                           {"Ember Season", 2027, 4, 4, 55}}};
    for (auto const& o : openings) {
        gen_event g;
        std::string const n = std::to_string(o.millions);
        g.title =
            std::string("Will \"") + o.film + "\" gross over $" + n + "M on its opening weekend?";
        g.slug = slugify(o.film) + "-opening-weekend-over-" + n + "m";
        g.description = std::string("Resolves \"Yes\" if \"") + o.film + "\" grosses more than $" +
                        n +
                        " million domestically over its opening weekend per Box Office Mojo's "
                        "first Monday report.";
        g.resolution_source = "https://www.boxofficemojo.com/";
        g.end = unix_time(o.y, o.m, o.d, 23);
        g.start = g.end - 30 * day_s;
        g.tags = {t_culture, t_movies, t_box_office};
        g.status = status_for(g.end, 3);
        if (g.status == gen_status::closed)
            g.closed_uma = "disputed"; // the studio's and the tracker's numbers differ
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = static_cast<int>(r.between(200, 800));
        m.winner = static_cast<int>(r.below(2));
        g.markets.push_back(m);
        out.add(g);
    }

    std::array<unsigned, 4> const chart_days{31, 7, 21, 5}; // Oct 31, Nov 7, Nov 21, Dec 5
    std::array<char const*, 5> const songs{"Velvet Static", "Paper Planes at Dawn",
                                           "Gold in the Gutter", "Slow Burn Summer",
                                           "Halfway to Houston"};
    for (std::size_t k = 0; k < chart_days.size(); ++k) {
        unsigned const m = k == 0 ? 10u : k == 3 ? 12u : 11u;
        unsigned const d = chart_days[k];
        gen_event g;
        g.title = "#1 song on the Billboard Hot 100 on " + long_date(2026, m, d) + "?";
        g.slug = "1-song-on-the-billboard-hot-100-on-" + slug_date(2026, m, d);
        g.description = "This market resolves to the song at #1 on the Billboard Hot 100 chart "
                        "dated " +
                        long_date(2026, m, d) + ".";
        g.resolution_source = "https://www.billboard.com/charts/hot-100/";
        g.end = unix_time(2026, m, d, 17) - 4 * day_s; // published the Tuesday before
        g.start = g.end - 7 * day_s;
        g.tags = {t_culture, t_music};
        g.neg_risk = true;
        g.status = status_for(g.end, 3);
        auto const p = probabilities(r, songs.size());
        for (std::size_t i = 0; i < songs.size(); ++i) {
            gen_market mk;
            mk.question = std::string("Will \"") + songs[i] + "\" be #1 on the Hot 100 on " +
                          long_date(2026, m, d) + "?";
            mk.slug = slugify(songs[i]) + "-1-on-hot-100-" + slug_date(2026, m, d);
            mk.group_title = songs[i];
            mk.p_milli = p[i];
            g.markets.push_back(mk);
        }
        settle_group(g, favourite(p));
        out.add(g);
    }
}

// ---------------------------------------------------------------------------------------------
// Weather and science

void weather_science(emitter& out, splitmix64& r) {
    struct city {
        char const* name;
        char const* slug;
        int base_f;
    };
    std::array<city, 5> const cities{{{"NYC", "nyc", 48},
                                      {"London", "london", 50},
                                      {"Chicago", "chicago", 42},
                                      {"Miami", "miami", 79},
                                      {"Seoul", "seoul", 50}}};
    for (std::size_t k = 0; k < 10; ++k) {
        city const& c = cities[k % cities.size()];
        unsigned const d = 14 + static_cast<unsigned>(k) * 2; // November 14 ... December 2
        unsigned const m = d > 30 ? 12 : 11;
        unsigned const dm = d > 30 ? d - 30 : d;
        gen_event g;
        g.title = std::string("Highest temperature in ") + c.name + " on " + month_names[m - 1] +
                  " " + std::to_string(dm) + "?";
        g.slug = std::string("highest-temperature-in-") + c.slug + "-on-" + month_lower(m) + "-" +
                 std::to_string(dm) + "-2026";
        g.description = std::string("This market resolves to the highest temperature recorded "
                                    "in ") +
                        c.name + " on " + long_date(2026, m, dm) +
                        ", in whole degrees Fahrenheit, per Weather Underground.";
        g.resolution_source = "https://www.wunderground.com/";
        g.end = unix_time(2026, m, dm, 23, 59, 59);
        g.start = g.end - 3 * day_s;
        g.tags = {t_weather, t_climate};
        g.neg_risk = true;
        g.status = status_for(g.end, 2);
        int const lo = c.base_f - 4;
        for (int b = 0; b < 5; ++b) {
            gen_market mk;
            int const from = lo + 2 * b;
            mk.group_title = b == 0 ? std::to_string(from + 1) + "°F or below"
                             : b == 4
                                 ? std::to_string(from) + "°F or higher"
                                 : std::to_string(from) + "-" + std::to_string(from + 1) + "°F";
            mk.question = std::string("Will the highest temperature in ") + c.name + " be " +
                          mk.group_title + " on " + month_names[m - 1] + " " + std::to_string(dm) +
                          "?";
            mk.slug = g.slug + "-" +
                      (b == 0   ? std::to_string(from + 1) + "f-or-below"
                       : b == 4 ? std::to_string(from) + "f-or-higher"
                                : std::to_string(from) + "-" + std::to_string(from + 1) + "f");
            static constexpr std::array<int, 5> shape{90, 230, 350, 230, 100};
            mk.p_milli = shape[static_cast<std::size_t>(b)];
            g.markets.push_back(mk);
        }
        settle_group(g, r.below(5));
        out.add(g);
    }

    struct single {
        char const* title;
        char const* description;
        std::vector<tag> tags;
        std::int64_t start, end;
        int p;
        int winner;
        bool no_book;
    };
    std::vector<single> const singles{
        {"Will 2026 be the hottest year on record?",
         "Resolves \"Yes\" if NASA's GISTEMP global annual mean for 2026, first published in "
         "January 2027, is the highest on record.",
         {t_weather, t_climate},
         unix_time(2026, 1, 10),
         unix_time(2027, 1, 20),
         310,
         1,
         false},
        {"Magnitude 8.0+ earthquake by September 30, 2026?",
         "Resolves \"Yes\" if the USGS reports an earthquake of magnitude 8.0 or higher "
         "anywhere by September 30, 2026.",
         {t_science, t_weather},
         unix_time(2026, 4, 1),
         unix_time(2026, 10, 1, 3, 59),
         180,
         1,
         false},
        {"Magnitude 8.0+ earthquake by March 31, 2027?",
         "Resolves \"Yes\" if the USGS reports an earthquake of magnitude 8.0 or higher "
         "anywhere by March 31, 2027.",
         {t_science, t_weather},
         unix_time(2026, 10, 2),
         unix_time(2027, 4, 1, 3, 59),
         170,
         1,
         false},
        {"Will SpaceX's Starship reach orbit by December 31, 2026?",
         "Resolves \"Yes\" if a Starship vehicle completes at least one full orbit of the Earth "
         "by December 31, 2026.",
         {t_science, t_space},
         unix_time(2026, 1, 15),
         unix_time(2027, 1, 1, 4, 59),
         420,
         1,
         false},
        {"Will SpaceX land a Starship on the Moon by 2028?",
         "Resolves \"Yes\" if a Starship lands on the lunar surface by December 31, 2028.",
         {t_science, t_space},
         unix_time(2026, 2, 1),
         unix_time(2029, 1, 1, 4, 59),
         140,
         1,
         false},
        // An AMM-era market: no CLOB order book (enableOrderBook false), prices fixed.
        {"Will humans land on Mars by 2030?",
         "Resolves \"Yes\" if a crewed spacecraft lands on Mars by December 31, 2030.",
         {t_science, t_space},
         unix_time(2022, 3, 1),
         unix_time(2031, 1, 1, 4, 59),
         40,
         1,
         true},
    };
    for (auto const& s : singles) {
        gen_event g;
        g.title = s.title;
        g.slug = slugify(std::string_view(s.title).substr(0, std::string_view(s.title).size() - 1));
        g.description = s.description;
        g.start = s.start;
        g.end = s.end;
        g.tags = s.tags;
        g.status = status_for(g.end, 7);
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = s.p;
        m.winner = s.winner;
        m.no_book = s.no_book;
        g.markets.push_back(m);
        out.add(g);
    }

    gen_event g;
    g.title = "Number of Atlantic named storms in 2026?";
    g.slug = "number-of-atlantic-named-storms-in-2026";
    g.description = "This market resolves to the number of named storms in the 2026 Atlantic "
                    "hurricane season per the National Hurricane Center's final tally.";
    g.resolution_source = "https://www.nhc.noaa.gov/";
    g.start = unix_time(2026, 5, 1);
    g.end = unix_time(2026, 12, 1, 5);
    g.tags = {t_weather, t_hurricanes};
    g.neg_risk = true;
    std::array<char const*, 5> const buckets{"≤13", "14-15", "16-17", "18-19", "≥20"};
    std::array<int, 5> const p{30, 180, 520, 220, 50};
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        gen_market m;
        m.question = std::string("Will there be ") + buckets[i] + " Atlantic named storms in 2026?";
        m.slug = "atlantic-named-storms-2026-" + std::string(i == 0   ? "13-or-fewer"
                                                             : i == 4 ? "20-or-more"
                                                                      : buckets[i]);
        m.group_title = buckets[i];
        m.p_milli = p[i];
        g.markets.push_back(m);
    }
    out.add(g);
}

// ---------------------------------------------------------------------------------------------
// Tech

void tech(emitter& out, splitmix64& r) {
    std::array<char const*, 5> const labs{"Orion AI", "Northwind Labs", "Helix Research", "Quanta",
                                          "Another company"};
    std::array<unsigned, 4> const months{8, 9, 10, 12};
    for (unsigned const m : months) {
        gen_event g;
        std::string const month = month_names[m - 1];
        g.title = "Which company has the best AI model end of " + month + "?";
        g.slug = "which-company-has-the-best-ai-model-end-of-" + month_lower(m) + "-2026";
        g.description = "This market resolves to the company owning the top model of the "
                        "LMArena text leaderboard on " +
                        month + " 30, 2026, 12:00 PM ET.";
        g.resolution_source = "https://lmarena.ai/leaderboard";
        g.end = unix_time(2026, m, 30, 16);
        g.start = g.end - 60 * day_s;
        g.tags = {t_tech, t_ai};
        g.neg_risk = true;
        g.status = status_for(g.end, 7);
        auto const p = probabilities(r, labs.size());
        for (std::size_t i = 0; i < labs.size(); ++i) {
            gen_market mk;
            mk.question = i + 1 == labs.size()
                              ? "Will another company have the best AI model end of " + month + "?"
                              : std::string("Will ") + labs[i] + " have the best AI model end of " +
                                    month + "?";
            mk.slug = slugify(mk.question.substr(0, mk.question.size() - 1)) + "-2026";
            mk.group_title = labs[i];
            mk.p_milli = p[i];
            g.markets.push_back(mk);
        }
        settle_group(g, favourite(p));
        out.add(g);
    }

    struct ipo {
        char const* company;
        int y;
        unsigned m, d;
        int winner;
    };
    std::array<ipo, 6> const ipos{{{"Lumen Robotics", 2026, 6, 30, 0},
                                   {"Brightpath Payments", 2026, 9, 30, 1},
                                   {"Cobalt Cloud", 2026, 11, 18, 0},
                                   {"Harbor Health", 2026, 12, 31, 1},
                                   {"Stellar Freight", 2027, 3, 31, 1},
                                   {"Nimbus Energy", 2027, 6, 30, 1}}};
    for (auto const& i : ipos) {
        gen_event g;
        std::string const d = long_date(i.y, i.m, i.d);
        g.title = std::string(i.company) + " IPO by " + d + "?";
        g.slug = slugify(i.company) + "-ipo-by-" + slug_date(i.y, i.m, i.d);
        g.description = std::string("Resolves \"Yes\" if ") + i.company +
                        " shares begin trading on a US exchange through an IPO or direct "
                        "listing by " +
                        d + ", 11:59 PM ET.";
        g.end = unix_time(i.y, i.m, i.d, 23, 59, 59);
        g.start = g.end - 120 * day_s;
        g.tags = {t_tech, t_ipos};
        g.status = status_for(g.end, 7);
        gen_market m;
        m.question = g.title;
        m.slug = g.slug;
        m.p_milli = static_cast<int>(r.between(100, 650));
        m.winner = i.winner;
        g.markets.push_back(m);
        out.add(g);
    }

    gen_event g;
    g.title = "Largest company in the world end of 2026?";
    g.slug = "largest-company-in-the-world-end-of-2026";
    g.description = "This market resolves to the company with the largest market "
                    "capitalization at the close of trading on December 31, 2026, per "
                    "companiesmarketcap.com.";
    g.resolution_source = "https://companiesmarketcap.com/";
    g.start = unix_time(2026, 1, 3);
    g.end = unix_time(2026, 12, 31, 22);
    g.tags = {t_tech, t_big_tech};
    g.neg_risk = true;
    std::array<char const*, 5> const firms{"NVIDIA", "Microsoft", "Apple", "Alphabet", "Amazon"};
    std::array<int, 5> const p{640, 160, 120, 60, 20};
    for (std::size_t i = 0; i < firms.size(); ++i) {
        gen_market m;
        m.question =
            std::string("Will ") + firms[i] + " be the largest company in the world end of 2026?";
        m.slug = slugify(m.question.substr(0, m.question.size() - 1));
        m.group_title = firms[i];
        m.p_milli = p[i];
        g.markets.push_back(m);
    }
    out.add(g);

    // AMM-era markets (enableOrderBook false): no CLOB book, fixed prices.
    gen_event amm;
    amm.title = "Robotaxis in 10 US cities by 2028?";
    amm.slug = "robotaxis-in-10-us-cities-by-2028";
    amm.description = "Resolves \"Yes\" if driverless ride-hailing without a safety driver is "
                      "offered to the public in at least 10 US cities by December 31, 2028.";
    amm.start = unix_time(2022, 6, 1);
    amm.end = unix_time(2029, 1, 1, 4, 59);
    amm.tags = {t_tech, t_ai};
    gen_market m;
    m.question = amm.title;
    m.slug = amm.slug;
    m.p_milli = 450;
    m.no_book = true;
    amm.markets.push_back(m);
    out.add(amm);
}

} // namespace

void add_generated_events(catalog& c) {
    emitter out(c);
    splitmix64 r(mix_seed(catalog_seed, 0x6e4));
    games(out, r, "NBA", t_nba, nba_teams, 16, unix_time(2026, 11, 2), 3 * day_s, 24, 224, true);
    games(out, r, "NFL", t_nfl, nfl_teams, 12, unix_time(2026, 9, 13), 7 * day_s, 17, 45, true);
    games(out, r, "NHL", t_nhl, nhl_teams, 10, unix_time(2026, 11, 15), 2 * day_s, 24, 6, false);
    soccer_games(out, r);
    sports_futures(out, r);
    politics(out, r);
    crypto(out, r);
    economy(out, r);
    culture(out, r);
    weather_science(out, r);
    tech(out, r);
}

} // namespace gateway::mocks::gamma
