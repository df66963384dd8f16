#pragma once
/**
 * @file beta_refusal.hpp
 * mock-beta's one refusal type: an upstream error code with the text it answers, used by the
 * signature checks and the matching engine alike.
 */
#include <gateway/providers/beta/errors.hpp>

#include <string>

namespace gateway::mocks::beta {

/// An upstream error answer: the code and its text.
struct refusal {
    wire::beta::error_def error;
    std::string msg;
};

/// A refusal with the error's fixed text.
inline refusal refuse(wire::beta::error_def const& e) {
    return {e, std::string(e.msg)};
}

} // namespace gateway::mocks::beta
