//! Every task, in memory and on disk (`tasks/{id}.json`), with the lookups handlers need: by id,
//! by track (audioId), and the claims of results that exist at most once.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use tunesmith_protocol::TaskFamily;

use super::delivery::Delivery;
use super::error::CoreError;
use super::store::Dirs;
use super::task::Task;

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, Arc<Task>>,
    /// audioId → (music task id, track index).
    audio: HashMap<String, (String, usize)>,
    /// Results that exist at most once: `cover:{taskId}`, `wav:{audioId}`.
    claims: HashSet<String>,
}

impl Inner {
    fn index(&mut self, task: &Arc<Task>) {
        // Only music tasks own their tracks (a recovery lists copies of an older task's).
        let owned = if task.kind == TaskFamily::Music {
            &task.tracks[..]
        } else {
            &[]
        };
        for (i, t) in owned.iter().enumerate() {
            self.audio.insert(t.id.clone(), (task.id.clone(), i));
        }
        if let Some(claim) = claim_of(task) {
            self.claims.insert(claim);
        }
        self.tasks.insert(task.id.clone(), task.clone());
    }
}

/// The key under which a second request for the same result is refused with 409.
pub fn claim_of(task: &Task) -> Option<String> {
    match task.kind {
        TaskFamily::Cover => task.parent_task.as_ref().map(|t| format!("cover:{t}")),
        TaskFamily::Wav => task.parent_audio.as_ref().map(|a| format!("wav:{a}")),
        _ => None,
    }
}

pub struct Tasks {
    dirs: Dirs,
    inner: Mutex<Inner>,
}

impl Tasks {
    pub fn load(dirs: &Dirs) -> std::io::Result<Tasks> {
        let mut inner = Inner::default();
        for (_, task) in dirs.read_all::<Task>(&dirs.tasks)? {
            inner.index(&Arc::new(task));
        }
        Ok(Tasks {
            dirs: dirs.clone(),
            inner: Mutex::new(inner),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, id: &str) -> Option<Arc<Task>> {
        self.lock().tasks.get(id).cloned()
    }

    /// The task `id` if it is of `kind` (a status query serves one family).
    pub fn of_kind(&self, id: &str, kind: TaskFamily) -> Result<Arc<Task>, CoreError> {
        self.get(id)
            .filter(|t| t.kind == kind)
            .ok_or_else(|| CoreError::NotFound(format!("No such task: taskId {id}")))
    }

    /// The music task holding track `audio_id`, and the track's index.
    pub fn find_audio(&self, audio_id: &str) -> Option<(Arc<Task>, usize)> {
        let inner = self.lock();
        let (task_id, i) = inner.audio.get(audio_id)?;
        Some((inner.tasks.get(task_id)?.clone(), *i))
    }

    /// The music task `task_id` and its track `audio_id` (or track `index` when no audioId is given).
    pub fn music_track(
        &self,
        task_id: Option<&str>,
        audio_id: Option<&str>,
        index: usize,
    ) -> Result<(Arc<Task>, usize), CoreError> {
        if let Some(audio) = audio_id {
            let (task, i) = self
                .find_audio(audio)
                .ok_or_else(|| CoreError::NotFound(format!("No such track: audioId {audio}")))?;
            if let Some(t) = task_id.filter(|t| *t != task.id) {
                return Err(CoreError::NotFound(format!(
                    "Track {audio} does not belong to task {t}"
                )));
            }
            return Ok((task, i));
        }
        let id = task_id.unwrap_or_default();
        let task = self
            .get(id)
            .filter(|t| t.kind == TaskFamily::Music)
            .ok_or_else(|| CoreError::NotFound(format!("No such music task: taskId {id}")))?;
        if index >= task.tracks.len() {
            return Err(CoreError::NotFound(format!(
                "Task {id} has no track {index}"
            )));
        }
        Ok((task, index))
    }

    pub fn is_claimed(&self, claim: &str) -> bool {
        self.lock().claims.contains(claim)
    }

    /// Ids of tasks that still have callbacks to deliver.
    pub fn undelivered(&self) -> Vec<String> {
        self.lock()
            .tasks
            .values()
            .filter(|t| t.delivery.pending(&***t))
            .map(|t| t.id.clone())
            .collect()
    }

    fn path(&self, id: &str) -> std::path::PathBuf {
        self.dirs.tasks.join(format!("{id}.json"))
    }

    /// Records a new task (disk first); `Ok(false)` when its claim is already taken.
    pub fn insert(&self, task: Task) -> std::io::Result<bool> {
        let mut inner = self.lock();
        if claim_of(&task).is_some_and(|c| inner.claims.contains(&c)) {
            return Ok(false);
        }
        self.dirs.write_json(&self.path(&task.id), &task)?;
        inner.index(&Arc::new(task));
        Ok(true)
    }

    pub fn set_delivery(&self, id: &str, delivery: Delivery) -> std::io::Result<()> {
        let mut inner = self.lock();
        let Some(old) = inner.tasks.get(id) else {
            return Ok(());
        };
        let mut task = (**old).clone();
        task.delivery = delivery;
        self.dirs.write_json(&self.path(id), &task)?;
        inner.tasks.insert(id.to_owned(), Arc::new(task));
        Ok(())
    }
}
