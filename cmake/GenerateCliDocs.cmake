# Man pages and bash completion of `compilescope`, generated from its own --help texts at build time
# (one source of truth). Run as: cmake -DCLI=<compilescope> -DOUT=<dir> -DVERSION=<x.y.z> -P this file.
# Writes OUT/man1/compilescope.1, OUT/man1/compilescope-<verb>.1 and OUT/bash-completion/compilescope.

function(roff_escape in outvar)
  string(REPLACE "\\" "\\e" s "${in}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" s "${s}")
  string(REPLACE "-" "\\-" s "${s}")
  set(${outvar} "${s}" PARENT_SCOPE)
endfunction()

function(run_cli outvar)
  execute_process(COMMAND ${CLI} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CLI} ${ARGN} failed (${rc}): ${err}")
  endif()
  set(${outvar} "${out}" PARENT_SCOPE)
endfunction()

function(run_cli_gui outvar)
  execute_process(COMMAND ${GUI} --help OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${GUI} --help failed (${rc}): ${err}")
  endif()
  string(REPLACE "${GUI}" "compilescope-gui" out "${out}")
  roff_escape("${out}" body)
  string(TIMESTAMP d "%Y-%m-%d" UTC)
  file(WRITE ${OUT}/man1/compilescope-gui.1
    ".TH COMPILESCOPE\\-GUI 1 \"${d}\" \"CompileScope ${VERSION}\" \"User Commands\"\n"
    ".SH NAME\ncompilescope\\-gui \\- the CompileScope desktop application\n"
    ".SH DESCRIPTION\n.nf\n${body}.fi\n.SH SEE ALSO\n.BR compilescope (1)\n")
endfunction()

run_cli(top --help)
# The verbs and their one-line summaries, from the "Commands:" block of --help.
string(REGEX MATCH "Commands:\n(.*)\n\nOptions:" block "${top}")
set(block "${CMAKE_MATCH_1}")
string(REPLACE "\n" ";" lines "${block}")
set(verbs "")
foreach(line IN LISTS lines)
  if(line MATCHES "^  ([a-z]+) +(.*)$")
    list(APPEND verbs "${CMAKE_MATCH_1}")
    set(summary_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endif()
endforeach()
if(NOT verbs)
  message(FATAL_ERROR "no commands found in `${CLI} --help`")
endif()
run_cli(formats import --list-formats)

file(MAKE_DIRECTORY ${OUT}/man1 ${OUT}/bash-completion)
string(TIMESTAMP date "%Y-%m-%d" UTC)

# compilescope(1)
roff_escape("${top}" body)
set(see "")
foreach(v IN LISTS verbs)
  string(APPEND see ".BR compilescope\\-${v} (1)\n")
endforeach()
file(WRITE ${OUT}/man1/compilescope.1
  ".TH COMPILESCOPE 1 \"${date}\" \"CompileScope ${VERSION}\" \"User Commands\"\n"
  ".SH NAME\ncompilescope \\- every compile a JIT stack does, and why it happened\n"
  ".SH DESCRIPTION\n.nf\n${body}.fi\n"
  ".SH SEE ALSO\n${see}.BR compilescope\\-gui (1)\n")

# compilescope-<verb>(1), one per verb
foreach(v IN LISTS verbs)
  run_cli(help ${v} --help)
  roff_escape("${help}" body)
  roff_escape("${summary_${v}}" summary)
  set(extra "")
  if(v STREQUAL "import")
    string(REPLACE "\t" "  " f "${formats}")
    roff_escape("${f}" f)
    set(extra ".SH FORMATS\nThe importers, by the id that \\fB\\-\\-format\\fR takes:\n.nf\n${f}.fi\n")
  endif()
  string(TOUPPER "${v}" V)
  file(WRITE ${OUT}/man1/compilescope-${v}.1
    ".TH COMPILESCOPE\\-${V} 1 \"${date}\" \"CompileScope ${VERSION}\" \"User Commands\"\n"
    ".SH NAME\ncompilescope\\-${v} \\- ${summary}\n"
    ".SH DESCRIPTION\n.nf\n${body}.fi\n${extra}"
    ".SH SEE ALSO\n.BR compilescope (1)\n")
endforeach()

# compilescope-gui(1), from the GUI's own --help when it was built (run offscreen).
if(GUI)
  set(ENV{QT_QPA_PLATFORM} offscreen)
  run_cli_gui(guihelp)
endif()

# Bash completion: verbs, each verb's options (every --option its help names) and import formats.
set(cases "")
foreach(v IN LISTS verbs)
  run_cli(help ${v} --help)
  string(REGEX MATCHALL "--[a-z][a-z0-9-]*" opts "${help}")
  list(REMOVE_DUPLICATES opts)
  list(JOIN opts " " opts)
  string(APPEND cases "    ${v}) opts=\"${opts} --help\" ;;\n")
endforeach()
string(REGEX MATCHALL "(^|\n)[a-z0-9-]+\t" ids "${formats}")
set(format_ids "")
foreach(id IN LISTS ids)
  string(STRIP "${id}" id)
  list(APPEND format_ids "${id}")
endforeach()
list(JOIN format_ids " " format_ids)
list(JOIN verbs " " verb_words)
file(WRITE ${OUT}/bash-completion/compilescope
"# bash completion for compilescope ${VERSION}, generated from its --help texts.
_compilescope() {
  local cur prev verb opts
  cur=\"\${COMP_WORDS[COMP_CWORD]}\"
  prev=\"\${COMP_WORDS[COMP_CWORD-1]}\"
  if [ \"\$COMP_CWORD\" -eq 1 ]; then
    COMPREPLY=( \$(compgen -W \"${verb_words} --help --version\" -- \"\$cur\") )
    return
  fi
  verb=\"\${COMP_WORDS[1]}\"
  if [ \"\$prev\" = \"--format\" ]; then
    COMPREPLY=( \$(compgen -W \"${format_ids}\" -- \"\$cur\") )
    return
  fi
  case \"\$verb\" in
${cases}    *) opts=\"\" ;;
  esac
  if [[ \"\$cur\" == -* ]]; then
    COMPREPLY=( \$(compgen -W \"\$opts\" -- \"\$cur\") )
  else
    COMPREPLY=( \$(compgen -f -- \"\$cur\") )
  fi
}
complete -o filenames -F _compilescope compilescope
")
