#pragma once
// From the Qt-free digest (anatomy/digest: what readRankDigest and the moe-digest
// binary produce) to the app's types: RankTrace and ImportError.
#include "anatomy/RankTrace.h"
#include "anatomy/digest/RankDigest.h"
#include "importers/ImportError.h"

namespace moewb::anatomy {

// Moves the digest's steps over one by one (the digest is left empty).
RankTrace rankTraceFromDigest(digest::RankDigest&& digest);

// Field and message clipped as every import error is.
importers::ImportError importErrorFromDigest(const digest::DigestFailure& failure);

} // namespace moewb::anatomy
