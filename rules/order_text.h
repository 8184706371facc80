// Issue 20: the plain-text order form. One order a line, written the way
// players of these games write them — the ship's or unit's id (or the state)
// first, then the order's word, then the book's words for the boxes of its
// form, case-insensitive, with the book's abbreviations:
//
//   BR2SL orders move Channel then Biscay port Brest harbour contact pursue min 2
//   FRA transfer 5000 to SPA
//   move 12 to 14 armies 3
//   withdraw BR/ship/BR2SL
//
// A line is parsed into the same schema tables the JSON form gives (the
// bytes are those schema::ParseJson("OrderFile") makes of the same orders),
// so either form is accepted wherever orders are (CLI, desk, mail). Every
// order the schema can hold prints back in this form and parses to the same
// bytes (tests/rules/order_text_test.cc, a rapidcheck property).
//
// The words are data: rules/order_words.cc, one table a ruleset, each
// order citing its rule; documented, with an example a kind, in each
// ruleset's README.md (checked by the tests).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace adjutant::rules {

// A keyword of an order (or of an item of a list of tables in it).
struct OrderWord {
  std::string_view word;     // canonical, lower case: "attach"
  std::string_view field;    // the schema field it fills: "attach_to"
  std::string_view aliases;  // other spellings, space separated: "att"
  // A word that also sets a flag: `form line` sets formation and
  // change_formation = true. (The printer uses it only when the flag holds.)
  std::string_view sets = {};
  // For a list of tables (`amphibious`): the value its item's `sets` field
  // takes, "true" or "false" (`load` / `unload`).
  std::string_view sets_value = {};
};

// How one table reads: the fields given by position after the order's word
// (or the item's word), and the keywords. A field no word names is still
// written by its schema name, with '-' for '_' (`pursue-into-ports`); an
// enum's values are its names in the same way (`line-ahead`).
struct TableWords {
  std::string_view table;                   // "ShipOrders"
  std::vector<std::string_view> positional;  // fields after the word, in order
  std::vector<OrderWord> words;
};

// One kind of order of a ruleset.
struct OrderKindWords {
  std::string_view ruleset;   // "pate"; "" for every game (withdraw, write)
  std::string_view wrapper;   // the OrderBody member: "PateOrder", "SowOrder"; "" when the table is it
  std::string_view verb;      // "orders"
  std::string_view aliases;   // "order"
  std::string_view subject;   // the field written before the verb ("ship"); "" for none
  bool subject_on_wrapper;    // the subject is the wrapper's field (SowOrder.state)
  TableWords table;
  std::string_view sets = {};        // a verb that also sets a flag: `inactivate` → active false
  std::string_view sets_value = {};  // "true" / "false"
  std::string_view rule = {};        // "PATE 4.3"
  std::string_view example = {};     // a line of the text form
};

// Enum values' other spellings: {"ShipMission", "IgnoreCommerce", "ignore"}.
struct EnumAlias {
  std::string_view enum_name;
  std::string_view value;
  std::string_view aliases;  // space separated
};

// The registry (rules/order_words.cc).
std::span<const OrderKindWords> AllOrderKinds();
std::span<const TableWords> ItemTables();
std::span<const EnumAlias> EnumAliases();

// A document is in the text form unless its first non-blank character is '{'.
bool IsOrderText(std::string_view document);

// Parses the text form for a game playing `rulesets` into an OrderFile
// buffer. A refusal names the file, line and column and the word, and the
// nearest valid word: "orders.txt:3:9: 'sial' is not an order of ShipOrders
// (PATE 4.3); did you mean 'sail'?".
Result<std::vector<uint8_t>> ParseOrderText(std::string_view text, std::string_view filename,
                                            std::span<const std::string_view> rulesets);

// Either form: JSON (schema::ParseJson) or text.
Result<std::vector<uint8_t>> ParseOrderDocument(std::string_view document, std::string_view filename,
                                                std::span<const std::string_view> rulesets);

// An OrderFile buffer (verified) in the text form, one order a line, with
// `as ROLE` lines where the role changes. Fails (naming it) only for an
// order of a ruleset not among `rulesets`.
Result<std::string> PrintOrderText(const uint8_t* order_file, std::span<const std::string_view> rulesets);

// One order's body (an OrderBody union value) as one line; "" if it has none.
Result<std::string> PrintOrderLine(uint8_t body_type, const void* body, std::span<const std::string_view> rulesets);

}  // namespace adjutant::rules
