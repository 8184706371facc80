#include "projections/navalmap.h"

#include "projections/archive.h"
#include "schema/codec.h"
#include "schema/event_generated.h"

namespace adjutant::projections {

template <class A> void Visit(A& a, NavalMapState& s) { a(s.last_seq, s.map); }

void NavalMapView::Apply(const Input& in) {
  s_.last_seq = in.seq;
  const auto* pe = in.event->payload_as_PateEvent();
  if (pe == nullptr || pe->body_type() != fb::PateEventBody_MapDefined) return;
  // Keep the map as a standalone buffer: copied out of the event once.
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(flatbuffers::Offset<fb::NavalMap>(
      schema::CopyTable(fbb, "NavalMap", pe->body_as_MapDefined()->map())));
  s_.map.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

const fb::NavalMap* NavalMapView::map() const {
  return s_.map.empty() ? nullptr : flatbuffers::GetRoot<fb::NavalMap>(s_.map.data());
}

std::string NavalMapView::Encode() const { return EncodeState(s_); }

Status NavalMapView::Decode(std::string_view bytes) {
  NavalMapState s;
  ADJ_RETURN_IF_ERROR(DecodeState(bytes, &s, name()));
  if (!s.map.empty() && !schema::VerifyTableBuffer("NavalMap", s.map.data(), s.map.size())) {
    return Status::Corruption("navalmap snapshot holds a damaged map");
  }
  s_ = std::move(s);
  return Status::Ok();
}

}  // namespace adjutant::projections
