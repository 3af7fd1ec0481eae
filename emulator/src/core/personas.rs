//! Personas and custom voices, persisted in `personas.json`: the personas made from generated
//! tracks (at most one per track), the voice ids handed out by voice tasks, and which voice
//! validations a regenerated phrase superseded.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use super::store::Dirs;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Persona {
    pub persona_id: String,
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub style: Option<String>,
    pub task_id: String,
    pub audio_id: String,
    pub vocal_start: f64,
    pub vocal_end: f64,
    pub created_ms: i64,
}

#[derive(Serialize, Deserialize, Default)]
struct Inner {
    /// personaId → persona.
    #[serde(default)]
    personas: HashMap<String, Persona>,
    /// voiceId → the voice task that makes it.
    #[serde(default)]
    voices: HashMap<String, String>,
    /// Voice-validation task → the regenerate task that replaced its phrase.
    #[serde(default)]
    superseded: HashMap<String, String>,
}

pub struct Personas {
    path: PathBuf,
    dirs: Dirs,
    inner: Mutex<Inner>,
}

impl Personas {
    pub fn load(dirs: &Dirs) -> std::io::Result<Personas> {
        let path = dirs.root.join("personas.json");
        let inner = dirs.read_json(&path)?.unwrap_or_default();
        Ok(Personas {
            path,
            dirs: dirs.clone(),
            inner: Mutex::new(inner),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Applies `change` and writes the whole state (disk first: on a failed write nothing changes).
    fn update<T>(&self, change: impl FnOnce(&mut Inner) -> T) -> std::io::Result<T> {
        let mut inner = self.lock();
        let mut next = Inner {
            personas: inner.personas.clone(),
            voices: inner.voices.clone(),
            superseded: inner.superseded.clone(),
        };
        let out = change(&mut next);
        self.dirs.write_json(&self.path, &next)?;
        *inner = next;
        Ok(out)
    }

    /// Records a persona; `Ok(false)` when its track already has one.
    pub fn add(&self, persona: Persona) -> std::io::Result<bool> {
        self.update(|i| {
            if i.personas.values().any(|p| p.audio_id == persona.audio_id) {
                return false;
            }
            i.personas.insert(persona.persona_id.clone(), persona);
            true
        })
    }

    pub fn get(&self, persona_id: &str) -> Option<Persona> {
        self.lock().personas.get(persona_id).cloned()
    }

    /// The persona already made from track `audio_id`, if any.
    pub fn of_audio(&self, audio_id: &str) -> Option<Persona> {
        self.lock()
            .personas
            .values()
            .find(|p| p.audio_id == audio_id)
            .cloned()
    }

    pub fn add_voice(&self, voice_id: &str, task_id: &str) -> std::io::Result<()> {
        self.update(|i| {
            i.voices.insert(voice_id.to_owned(), task_id.to_owned());
        })
    }

    /// The voice task that makes `voice_id`.
    pub fn voice_task(&self, voice_id: &str) -> Option<String> {
        self.lock().voices.get(voice_id).cloned()
    }

    pub fn supersede(&self, old: &str, new: &str) -> std::io::Result<()> {
        self.update(|i| {
            i.superseded.insert(old.to_owned(), new.to_owned());
        })
    }

    /// The task whose phrase replaced validation `task_id`'s, if one did.
    pub fn superseded_by(&self, task_id: &str) -> Option<String> {
        self.lock().superseded.get(task_id).cloned()
    }
}
