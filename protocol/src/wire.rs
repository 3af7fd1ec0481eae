//! Wire shapes of responses, records and callbacks, as the service writes them (serde).
