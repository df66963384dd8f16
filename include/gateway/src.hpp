#pragma once
/**
 * @file src.hpp
 * Include in exactly one translation unit of a program that uses the SDK: it compiles
 * Boost.JSON's sources (Debian's Boost 1.81 ships no libboost_json).
 */
#include <boost/json/src.hpp>
