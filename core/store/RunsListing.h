#pragma once
// The run listing ProjectStore::runs() keeps per connection until the file changes
// (ProjectStoreRuns.cpp): dropped when the store closes.
#include <QString>

namespace moewb::store {

void forgetRunsListing(const QString& connectionName);

} // namespace moewb::store
