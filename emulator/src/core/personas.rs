//! Personas made from generated tracks (`generatePersona`), on disk in `personas.json`: at most
//! one per track, and looked up when a music request names one as its `personaId`.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use super::error::CoreError;
use super::store::{read_json, Dirs};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Persona {
    pub id: String,
    pub name: String,
    pub description: String,
    /// The track it was made from.
    pub audio_id: String,
}

pub struct Personas {
    dirs: Dirs,
    /// personaId → persona.
    inner: Mutex<HashMap<String, Persona>>,
}

impl Personas {
    pub fn load(dirs: &Dirs) -> std::io::Result<Personas> {
        let inner = read_json::<HashMap<String, Persona>>(&dirs.root.join("personas.json"))?
            .unwrap_or_default();
        Ok(Personas {
            dirs: dirs.clone(),
            inner: Mutex::new(inner),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Persona>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, id: &str) -> Option<Persona> {
        self.lock().get(id).cloned()
    }

    /// The persona made from track `audio_id`, if any.
    pub fn get_by_track(&self, audio_id: &str) -> Option<Persona> {
        self.lock()
            .values()
            .find(|p| p.audio_id == audio_id)
            .cloned()
    }

    /// Records `persona` (disk first); `Conflict` when its track already has one.
    pub fn insert(&self, persona: Persona) -> Result<(), CoreError> {
        let mut all = self.lock();
        if all.values().any(|p| p.audio_id == persona.audio_id) {
            return Err(CoreError::Conflict);
        }
        let mut next = all.clone();
        next.insert(persona.id.clone(), persona);
        self.dirs
            .write_json(&self.dirs.root.join("personas.json"), &next)?;
        *all = next;
        Ok(())
    }
}
