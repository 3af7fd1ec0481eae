//! The operations of the service, by name: one list, from which `Op::ALL` follows. What each one
//! is (its route, rules, answer, price) is its row in `endpoints.rs`.

/// Declares `Op` and `Op::ALL` from one list, so that a new operation cannot be left out of `ALL`.
macro_rules! operations {
    ($($op:ident,)*) => {
        /// The operations, named as the client's JavaScript methods are.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $($op,)*
        }

        impl Op {
            /// Every operation, in the order of the endpoint table.
            pub const ALL: [Op; [$(Op::$op,)*].len()] = [$(Op::$op,)*];
        }
    };
}

operations! {
    Generate,
    Extend,
    UploadCover,
    UploadExtend,
    AddInstrumental,
    AddVocals,
    BoostStyle,
    GetTask,
    GetCredits,
    GenerateCover,
    GetCover,
    ConvertToWav,
    GetWav,
    GenerateLyrics,
    GetLyrics,
    GetTimestampedLyrics,
    SeparateVocals,
    GetVocalSeparation,
    GenerateVideo,
    GetVideo,
    UploadFromUrl,
    UploadStream,
    UploadBase64,
    GenerateSounds,
    ReplaceSection,
    Mashup,
    GeneratePersona,
    GenerateMidi,
    GetMidi,
    RecoverAudio,
    GetRecovery,
    ValidateVoice,
    GetVoiceValidation,
    RegenerateVoicePhrase,
    CreateVoice,
    GetVoice,
    CheckVoice,
}
