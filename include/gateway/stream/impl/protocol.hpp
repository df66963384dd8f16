#pragma once
// Bodies of protocol.hpp (being written on ws-base by the lead).
